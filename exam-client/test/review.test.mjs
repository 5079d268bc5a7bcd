import { test, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { IDBFactory } from 'fake-indexeddb';
import { ExamClient, REVIEW_FLAGS_ID } from '../sdk/index.js';
import { world, settle, networkDown } from './support/harness.mjs';

let w;
afterEach(async () => w && (await w.closeAll()));

test('a flag for review is on this device first, autosaved as the reserved draft entry, and never an answer', async () => {
  w = world();
  const c = await w.start();
  const seen = [];
  c.on('flags', (e) => seen.push(e.questionIds));
  await c.setAnswer('q1', '4');
  await c.setFlag('q5', true);
  await c.setFlag('q2', true);
  assert.deepEqual(c.reviewFlags(), ['q2', 'q5'], 'in the paper\'s order');
  assert.equal(c.isFlagged('q5'), true);
  assert.deepEqual(seen, [['q5'], ['q2', 'q5']]);
  assert.deepEqual(c.answers(), { q1: '4' }, 'flags are not answers');
  await w.timers.advance(1500);
  const sent = w.patches()[0].body.changes;
  assert.deepEqual(sent.find((x) => x.questionId === REVIEW_FLAGS_ID), { questionId: '~review', value: ['q2', 'q5'] });
  assert.equal(c.status.state, 'saved');

  await c.setFlag('q2', false);
  await c.setFlag('q5', false);
  await w.timers.advance(1500);
  assert.deepEqual(w.patches().at(-1).body.changes, [{ questionId: '~review', value: null }], 'none flagged is a clear');
  await assert.rejects(c.setFlag('nope', true), { code: 'UNKNOWN_QUESTION' });
});

test('flags survive a reload offline and reach another device', async () => {
  w = world();
  const c = await w.start();
  w.api.before = () => networkDown();
  await c.setFlag('q3', true);
  await c.close();
  const reloaded = await w.resume();
  assert.deepEqual(reloaded.reviewFlags(), ['q3'], 'from IndexedDB, offline');
  w.api.before = null;
  await w.timers.advance(60_000);
  assert.equal(reloaded.status.state, 'saved');
  // another device: its own IndexedDB, a new epoch; the flags come with the draft
  const other = await ExamClient.start({ examId: w.examId, candidateId: 'c-001', accessCode: 'code-001' }, w.options({ indexedDB: new IDBFactory() }));
  await settle();
  try {
    assert.deepEqual(other.reviewFlags(), ['q3']);
    await other.setFlag('q6', true);
    assert.deepEqual(other.reviewFlags(), ['q3', 'q6']);
  } finally {
    await other.close();
  }
});

test('the final sheet leaves the flags out, and a locked session refuses a flag', async () => {
  w = world();
  const c = await w.start();
  await c.setAnswer('q4', 'Paris');
  await c.setFlag('q4', true);
  const submitting = c.submit();
  await w.timers.advance(100);
  const paper = await submitting;
  const sheet = w.submissions()[0].body;
  assert.deepEqual(Object.keys(sheet.answers), ['q4']);
  assert.equal(paper.answers['~review'], undefined);
  await assert.rejects(c.setFlag('q1', true), { code: 'EDITING_LOCKED' });
});
