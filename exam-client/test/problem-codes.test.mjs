import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { serverCodes, withCodes } from '../scripts/problem-codes.mjs';

test('the SDK types every problem code the services answer with (sdk/index.d.ts = suite-contracts ProblemCode)', () => {
  const committed = readFileSync(new URL('../sdk/index.d.ts', import.meta.url), 'utf8');
  assert.ok(serverCodes().includes('SESSION_TAKEN_OVER'));
  assert.equal(committed, withCodes(committed), 'run `npm run codes` in exam-client after changing ProblemCode');
});
