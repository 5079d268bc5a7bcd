import { test, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { world, until, networkDown } from './support/harness.mjs';

let w;
afterEach(async () => w && (await w.closeAll()));

const starts = () => w.api.log.filter((e) => e.method === 'POST' && e.path === '/api/v1/sessions');

test('sign-in whose answer is lost: the retry carries the same Idempotency-Key and gets the same epoch', async () => {
  w = world();
  let lose = 1;
  w.api.after = (req) => (req.path === '/api/v1/sessions' && lose-- > 0 ? networkDown() : undefined);
  const signingIn = w.start();
  await w.timers.advance(30_000);
  const c = await signingIn;
  assert.equal(starts().length, 2, 'the lost answer was retried once');
  const [first, retry] = starts();
  assert.ok(first.headers['idempotency-key']);
  assert.equal(retry.headers['idempotency-key'], first.headers['idempotency-key']);
  assert.equal(w.api.sessions.get(c.sessionId).epoch, 1, 'the retry took nothing over');
  await c.setAnswer('q1', '4');
  await w.timers.advance(5_000);
  await until(() => w.patches().some((p) => p.body?.changes?.[0]?.questionId === 'q1'), 'the autosave');
  assert.notEqual(c.state, 'taken-over');
  assert.equal(c.session.takenOver, false);
});

test('each sign-in has its own key: signing in again on another device is a takeover', async () => {
  w = world();
  const laptop = await w.start();
  await w.start({ indexedDB: new (w.indexedDB.constructor)() });
  const [a, b] = starts();
  assert.notEqual(a.headers['idempotency-key'], b.headers['idempotency-key']);
  assert.equal(w.api.sessions.get(laptop.sessionId).epoch, 2);
});
