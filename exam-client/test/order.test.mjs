// Order per candidate (issue 21; docs/api.md §3.1, "Order and pools per candidate"): the SDK keeps
// the paper's questions in the order the server gave this candidate, shows options in optionOrder,
// and every answer still names the option by its text (the exam's ids), so grading maps nothing back.
import { test, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { optionsInOrder } from '../sdk/index.js';
import { world } from './support/harness.mjs';

let w;
afterEach(async () => w && (await w.closeAll()));

// What session-service sends a candidate of a shuffled exam: its own question order, options in
// the exam's order with their display order beside them.
const SHUFFLED = [
  { id: 'q2', type: 'MULTIPLE', prompt: 'Primes?', options: ['2', '4', '5'], optionOrder: [2, 0, 1], points: 3, key: ['2', '5'] },
  { id: 'q3', type: 'TRUE_FALSE', prompt: '0 is even', points: 1, key: true },
  { id: 'q1', type: 'SINGLE', prompt: '2+2?', options: ['3', '4'], optionOrder: [1, 0], points: 2, key: '4' },
];

test('optionsInOrder shows options in optionOrder, each with its index in the exam', () => {
  assert.deepEqual(optionsInOrder(SHUFFLED[0]), [
    { index: 2, option: '5' },
    { index: 0, option: '2' },
    { index: 1, option: '4' },
  ]);
  assert.deepEqual(optionsInOrder({ options: ['a', 'b'] }), [{ index: 0, option: 'a' }, { index: 1, option: 'b' }], 'no shuffle: the exam order');
  // a malformed order (not a permutation) never hides or repeats an option: the exam order
  for (const bad of [[0, 0], [1], [0, 2], ['1', 0], null]) {
    assert.deepEqual(optionsInOrder({ options: ['a', 'b'], optionOrder: bad }).map((o) => o.option), ['a', 'b']);
  }
  assert.deepEqual(optionsInOrder({ type: 'TRUE_FALSE' }), []);
});

test('the paper keeps the candidate\'s order across a reload, and answers keep the exam\'s ids', async () => {
  w = world();
  w.api.exams.get(w.examId).questions = SHUFFLED;
  const c = await w.start();
  assert.deepEqual(c.questions.map((q) => q.id), ['q2', 'q3', 'q1'], 'the server\'s order for this candidate');
  assert.deepEqual(c.questions[0].optionOrder, [2, 0, 1]);
  // the first option shown for q1 is '4' (index 1): answering it sends '4', as without a shuffle
  await c.setAnswer('q1', optionsInOrder(c.questions[2])[0].option);
  await c.setAnswer('q2', [optionsInOrder(c.questions[0])[0].option]);
  await w.timers.advance(1500);
  assert.deepEqual(w.patches()[0].body.changes, [
    { questionId: 'q1', value: '4' },
    { questionId: 'q2', value: ['5'] },
  ]);
  await c.close();
  const reloaded = await w.resume();
  assert.deepEqual(reloaded.questions.map((q) => q.id), ['q2', 'q3', 'q1'], 'the same order from IndexedDB');
  assert.deepEqual(reloaded.questions[2].optionOrder, [1, 0]);
  assert.deepEqual(reloaded.answers(), { q1: '4', q2: ['5'] });
});

test('the reference page renders choice options through optionsInOrder', () => {
  const page = readFileSync(new URL('../page/app.js', import.meta.url), 'utf8');
  assert.match(page, /import \{[^}]*\boptionsInOrder\b[^}]*\} from '\/sdk\/index\.js'/);
  const control = page.slice(page.indexOf('function controlFor('));
  assert.match(control, /const options = optionsInOrder\(q\)/, 'SINGLE and MULTIPLE take their options in display order');
  assert.doesNotMatch(control.slice(0, control.indexOf('switch')), /q\.options\.map/, 'not in the exam\'s order');
  assert.match(page, /client\.questions\.forEach/, 'questions in the paper\'s (the candidate\'s) order');
});
