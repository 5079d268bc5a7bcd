import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { invalidReason } from '../sdk/validate.js';

// The suite's one answer rule (suite-contracts AnswerRule): the services run the same file.
const file = JSON.parse(readFileSync(new URL('../../suite-contracts/src/main/resources/org/examsuite/contracts/answer/answer-vectors.json', import.meta.url), 'utf8'));

test('the SDK takes exactly the answer values the services take (answer-vectors.json)', () => {
  assert.ok(file.vectors.length >= 30);
  const disagreements = [];
  for (const v of file.vectors) {
    const question = { id: v.question, ...file.questions[v.question] };
    const reason = invalidReason(question, v.value);
    if ((reason === null) !== v.accepted) disagreements.push(`${v.question} ${JSON.stringify(v.value)}: ${reason ?? 'accepted'}`);
  }
  assert.deepEqual(disagreements, []);
});
