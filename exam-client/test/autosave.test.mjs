import { test, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { world, settle, until, networkDown } from './support/harness.mjs';

let w;
afterEach(async () => w && (await w.closeAll()));

test('an answer is in IndexedDB before any request, and survives a reload while offline', async () => {
  w = world();
  const c = await w.start();
  w.api.before = () => networkDown();
  await c.setAnswer('q4', 'Paris');
  assert.equal(w.patches().length, 0, 'nothing sent yet (debounce)');
  await c.close();
  const again = await w.resume();
  assert.equal(again.answer('q4'), 'Paris');
  assert.equal(again.pendingCount(), 1);
});

test('debounce: changes within 1.5 s go out as one delta; only changed questions are sent', async () => {
  w = world();
  const c = await w.start();
  await c.setAnswer('q1', '4');
  await w.timers.advance(1000);
  await c.setAnswer('q4', 'Paris');
  await w.timers.advance(1000);
  await c.setAnswer('q4', 'Lyon');
  assert.equal(w.patches().length, 0);
  await w.timers.advance(1500);
  assert.equal(w.patches().length, 1);
  const first = w.patches()[0].body;
  assert.deepEqual(first.changes.map((x) => [x.questionId, x.value]).sort(), [['q1', '4'], ['q4', 'Lyon']]);
  assert.equal(first.version, 3, 'the request version is the newest local version in it');

  await c.setAnswer('q3', true);
  await w.timers.advance(1500);
  assert.equal(w.patches().length, 2);
  assert.deepEqual(w.patches()[1].body.changes, [{ questionId: 'q3', value: true }], 'deltas only');
  assert.equal(c.status.state, 'saved');
  assert.deepEqual(w.api.currentAnswers(c.sessionId), { q1: '4', q4: 'Lyon', q3: true });
});

test('setting the same value again is not a change', async () => {
  w = world();
  const c = await w.start();
  await c.setAnswer('q1', '4');
  await w.timers.advance(1500);
  const v = (await c.setAnswer('q1', '4')).version;
  assert.equal(v, 1);
  assert.equal(c.pendingCount(), 0);
});

test('continuous typing still saves at maxWait', async () => {
  w = world({ clientOptions: { maxWaitMs: 4000 } });
  const c = await w.start();
  for (let i = 0; i < 8; i++) {
    await c.setAnswer('q6', 'x'.repeat(i + 1));
    await w.timers.advance(1000);
  }
  assert.ok(w.patches().length >= 1, 'a save happened although the debounce kept being reset');
});

test('serial queue: one request in flight; changes made meanwhile go in the next request', async () => {
  w = world();
  const c = await w.start();
  let release;
  let inFlight = 0;
  let maxInFlight = 0;
  w.api.before = async (req) => {
    if (req.method !== 'PATCH') return undefined;
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    if (!release) await new Promise((r) => (release = r));
    inFlight--;
    return undefined;
  };
  await c.setAnswer('q1', '3');
  await w.timers.advance(1500);
  await until(() => release, 'first PATCH in flight');
  await c.setAnswer('q1', '4');
  await c.setAnswer('q4', 'Paris');
  c.flush();
  c.flush();
  await w.timers.advance(3000);
  assert.equal(w.patches().length, 1, 'the second waits for the first');
  release();
  await until(() => w.patches().length === 2, 'second PATCH');
  await w.timers.advance(3000);
  assert.equal(maxInFlight, 1);
  assert.deepEqual(w.patches()[1].body.changes.map((x) => x.questionId).sort(), ['q1', 'q4']);
  assert.deepEqual(w.api.currentAnswers(c.sessionId), { q1: '4', q4: 'Paris' });
  assert.equal(c.pendingCount(), 0);
});

test('offline: status says saved locally, retries with backoff, and the next attempt carries newer answers', async () => {
  w = world();
  const c = await w.start();
  const states = [];
  c.on('status', (s) => states.push(s.state));
  w.api.before = (req) => (req.method === 'PATCH' ? networkDown() : undefined);
  await c.setAnswer('q4', 'Paris');
  await w.timers.advance(1500);
  await w.timers.advance(200);
  assert.equal(c.status.state, 'offline-saved-locally');
  assert.match(c.status.message, /saved on this device and will sync automatically/);
  await c.setAnswer('q5', 3.14);
  w.api.before = null;
  await w.timers.advance(60_000);
  assert.equal(c.status.state, 'saved');
  assert.deepEqual(w.api.currentAnswers(c.sessionId), { q4: 'Paris', q5: 3.14 });
  assert.ok(states.includes('offline-saved-locally'));
});

test('per-question stale: the server value is adopted and not retried', async () => {
  w = world();
  const c = await w.start();
  await c.setAnswer('q4', 'Paris');
  await w.timers.advance(1500);
  // Another writer with a higher stamp (simulated directly in the fake's draft).
  w.api.drafts.get(c.sessionId).answers.q4 = { value: 'Rome', epoch: 1, version: 99 };
  await c.setAnswer('q4', 'Lyon');
  const stale = [];
  c.on('stale', (s) => stale.push(...s));
  await w.timers.advance(1500);
  assert.deepEqual(stale, [{ questionId: 'q4', heldVersion: 99 }]);
  await w.timers.advance(100);
  assert.equal(c.answer('q4'), 'Rome', 'the newer server value replaced the stale local one');
  assert.equal(c.pendingCount(), 0);
  const before = w.patches().length;
  await w.timers.advance(60_000);
  assert.equal(w.patches().length, before, 'stale is success: no retry');
});

for (const anonymous of [false, true]) test(`a rejected answer (400${anonymous ? ', not named' : ', named by questionId'}) does not hold back the others`, async () => {
  w = world();
  w.api.anonymousRejections = anonymous;
  const c = await w.start();
  await c.setAnswer('q3', true);
  // The SDK validates too; go around it to reach the server's 400 path.
  c.questions.find((q) => q.id === 'q4').type = 'ESSAY';
  await c.setAnswer('q4', 'INVALID');
  await c.setAnswer('q1', '4');
  const rejected = [];
  c.on('rejected', (r) => rejected.push(r.questionId));
  await w.timers.advance(1500);
  await w.timers.advance(100);
  assert.deepEqual(rejected, ['q4']);
  assert.deepEqual(w.api.currentAnswers(c.sessionId), { q1: '4', q3: true });
  assert.equal(c.pendingCount(), 0);
  assert.equal(w.patches().length, anonymous ? 4 : 2, anonymous ? 'batch, then one by one' : 'batch, then the rest at once');
});

test('invalid values are refused locally', async () => {
  w = world();
  const c = await w.start();
  await assert.rejects(c.setAnswer('q1', '5'), { code: 'INVALID_ANSWER' });
  await assert.rejects(c.setAnswer('q2', '2'), { code: 'INVALID_ANSWER' });
  await assert.rejects(c.setAnswer('q3', 'true'), { code: 'INVALID_ANSWER' });
  await assert.rejects(c.setAnswer('q5', Number.NaN), { code: 'INVALID_ANSWER' });
  await assert.rejects(c.setAnswer('q9', 'x'), { code: 'UNKNOWN_QUESTION' });
  await assert.rejects(c.setAnswer('q6', 'x'.repeat(70 * 1024)), { code: 'INVALID_ANSWER' });
  await c.setAnswer('q2', ['2', '5']);
  await c.setAnswer('q2', null);
  assert.equal(c.answer('q2'), null);
});

test('429 with Retry-After and 409 REQUEST_IN_PROGRESS are retried; SESSION_TAKEN_OVER is final and locks editing', async () => {
  w = world();
  const c = await w.start();
  let n = 0;
  w.api.before = (req) => {
    if (req.method !== 'PATCH') return undefined;
    n++;
    if (n === 1) return { status: 429, headers: { 'content-type': 'application/problem+json', 'retry-after': '4' }, body: { status: 429, code: 'TOO_MANY_REQUESTS' } };
    if (n === 2) return { status: 409, headers: { 'content-type': 'application/problem+json' }, body: { status: 409, code: 'REQUEST_IN_PROGRESS' } };
    return undefined;
  };
  await c.setAnswer('q1', '4');
  await w.timers.advance(1500);
  await w.timers.advance(3000);
  assert.equal(n, 1, 'Retry-After 4 s is honoured');
  await w.timers.advance(30_000);
  assert.equal(n, 3);
  assert.equal(c.status.state, 'saved');

  // Another device signs in: this device's epoch is now old.
  w.api.before = null;
  const other = await w.start();
  const locks = [];
  c.on('lock', (l) => locks.push(l.reason));
  await c.setAnswer('q4', 'Paris');
  await w.timers.advance(1500);
  const count = w.patches().length;
  assert.equal(c.status.state, 'error');
  assert.equal(c.status.error.code, 'SESSION_TAKEN_OVER');
  assert.deepEqual(locks, ['taken-over']);
  await assert.rejects(c.setAnswer('q4', 'Lyon'), { code: 'EDITING_LOCKED' });
  await w.timers.advance(60_000);
  assert.equal(w.patches().length, count, 'no retry of a final error');
  assert.equal(other.deviceEpoch, 2);
});

test('opening offline with nothing pending says answers are on this device, not "syncing"', async () => {
  w = world();
  const c = await w.start();
  await c.setAnswer('q1', '4');
  await w.timers.advance(1500);
  await c.close();
  w.api.before = () => networkDown();
  const again = await w.resume();
  await w.timers.advance(2000);
  assert.equal(again.status.state, 'offline-saved-locally');
  w.api.before = null;
  await w.timers.advance(60_000);
  assert.equal(again.status.state, 'saved');
});

test('a large backlog is split into requests under the size limit', async () => {
  w = world({ clientOptions: { maxRequestBytes: 3000 } });
  const c = await w.start();
  await c.setAnswer('q4', 'a'.repeat(1600));
  await c.setAnswer('q6', 'b'.repeat(1600));
  await c.setAnswer('q1', '4');
  await w.timers.advance(1500);
  const sizes = w.patches().map((p) => p.rawBody.length);
  assert.equal(sizes.length, 2);
  for (const size of sizes) assert.ok(size < 3000, `${size} bytes`);
  assert.equal(Object.keys(w.api.currentAnswers(c.sessionId)).length, 3);
});
