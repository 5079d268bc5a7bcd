import { test, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { world, until, networkDown } from './support/harness.mjs';

let w;
afterEach(async () => w && (await w.closeAll()));

test('the version counter is persisted: monotonic across reloads', async () => {
  w = world();
  const c = await w.start();
  await c.setAnswer('q1', '3');
  await c.setAnswer('q1', '4');
  await c.close();
  const again = await w.resume();
  const { version } = await again.setAnswer('q4', 'Paris');
  assert.equal(version, 3);
});

test('on load the local and server drafts are merged and the server gets what it lacks', async () => {
  w = world();
  const c = await w.start();
  await c.setAnswer('q1', '4');
  await w.timers.advance(1500);
  // Offline: a change only this device has.
  w.api.before = () => networkDown();
  await c.setAnswer('q4', 'Paris');
  await c.close();
  // Meanwhile the server draft got q3 (say a write from before the device lost its data).
  w.api.drafts.get(c.sessionId).answers.q3 = { value: true, epoch: 1, version: 50 };
  w.api.before = null;
  const again = await w.resume();
  await until(() => again.status.state === 'saved', 'synced after load');
  assert.deepEqual(again.answers(), { q1: '4', q3: true, q4: 'Paris' });
  assert.deepEqual(w.api.currentAnswers(c.sessionId), { q1: '4', q3: true, q4: 'Paris' });
});

test('a new generation (server lost acknowledged answers) makes the client push them again', async () => {
  w = world();
  const c = await w.start();
  await c.setAnswer('q1', '4');
  await w.timers.advance(1500);
  w.api.persist(c.sessionId); // write-behind reached PostgreSQL with q1 only
  await c.setAnswer('q4', 'Paris');
  await c.setAnswer('q5', 3.14);
  await w.timers.advance(1500);
  assert.deepEqual(w.api.currentAnswers(c.sessionId), { q1: '4', q4: 'Paris', q5: 3.14 });
  w.api.loseRedis(c.sessionId); // restored from PostgreSQL: q4, q5 are gone, generation 2
  assert.deepEqual(w.api.currentAnswers(c.sessionId), { q1: '4' });
  await c.setAnswer('q3', false); // the next PATCH reveals generation 2
  await w.timers.advance(1500);
  await until(() => c.status.state === 'saved' && w.api.currentAnswers(c.sessionId).q4, 're-push');
  assert.deepEqual(w.api.currentAnswers(c.sessionId), { q1: '4', q3: false, q4: 'Paris', q5: 3.14 });
  assert.equal(c.session.generation, 2);
});

test('signing in again after a takeover keeps local work that is newer, adopts what the other device wrote', async () => {
  w = world();
  const a = await w.start();
  await a.setAnswer('q1', '4');
  await w.timers.advance(1500);
  // Device A goes offline and keeps answering.
  w.api.before = () => networkDown();
  await a.setAnswer('q4', 'Paris');
  await a.close();
  w.api.before = null;
  // Device B (another IndexedDB) takes over and answers q1 differently.
  const b = await w.start({ indexedDB: new (await import('fake-indexeddb')).IDBFactory() });
  await b.setAnswer('q1', '3');
  await w.timers.advance(1500);
  await b.close();
  // A signs in again (new epoch); its IndexedDB still has q4 unsent.
  const a2 = await w.start();
  await until(() => a2.status.state === 'saved', 'synced');
  assert.equal(a2.deviceEpoch, 3);
  assert.deepEqual(a2.answers(), { q1: '3', q4: 'Paris' });
  assert.deepEqual(w.api.currentAnswers(a2.sessionId), { q1: '3', q4: 'Paris' });
});

test('a change made right after the merge adopted a server answer outranks it and is sent', async () => {
  w = world();
  const c = await w.start();
  // As if the merge had just adopted another device's q4 at version 7 while this device's
  // counter is still lower.
  const [adopted] = await c._store.updateAnswers(c.sessionId, ['q4'], () => ({
    sessionId: c.sessionId, questionId: 'q4', value: 'Rome', epoch: null, version: 7, ackedVersion: 7, sentVersion: 7,
  }));
  c._answers.set('q4', adopted);
  const { version } = await c.setAnswer('q4', 'Paris');
  assert.equal(version, 8);
  assert.equal(c.pendingCount(), 1, 'still to be sent');
  await w.timers.advance(1500);
  assert.deepEqual(w.api.currentAnswers(c.sessionId), { q4: 'Paris' });
});
