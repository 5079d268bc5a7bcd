import { test, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { world, until, networkDown } from './support/harness.mjs';
import { openStore } from '../sdk/store.js';

let w;
afterEach(async () => w && (await w.closeAll()));

test('submit: editing → submitting → submitted; double submit is one request; the sheet carries versions', async () => {
  w = world();
  const c = await w.start();
  await c.setAnswer('q1', '4');
  await c.setAnswer('q4', 'Paris');
  await c.setAnswer('q2', ['2', '5']);
  await c.setAnswer('q2', null);
  assert.equal(c.state, 'editing');
  const states = [];
  c.on('status', (s) => states.push(s.state));
  const p1 = c.submit();
  const p2 = c.submit();
  assert.equal(p1, p2);
  const paper = await p1;
  assert.equal(c.state, 'submitted');
  assert.equal(w.submissions().length, 1);
  const sent = w.submissions()[0];
  assert.ok(sent.headers['idempotency-key']);
  assert.deepEqual(sent.body, {
    sessionId: c.sessionId,
    answers: { q1: { value: '4', version: 1 }, q2: { value: null, version: 4 }, q4: { value: 'Paris', version: 2 } },
  });
  assert.deepEqual(paper.answers.q4, { value: 'Paris', version: 2 });
  assert.equal(w.api.papersFor(c.sessionId).length, 1);
  assert.ok(states.includes('submitting') && states.at(-1) === 'submitted');
  await assert.rejects(c.setAnswer('q1', '3'), { code: 'EDITING_LOCKED', message: 'submitted' });
  assert.equal(await c.submit(), c.paper, 'submitting again resolves with the paper, no request');
  assert.equal(w.submissions().length, 1);
});

test('reload mid-submit (request lost before the server) resends the same key and the same bytes', async () => {
  w = world();
  const c = await w.start();
  await c.setAnswer('q1', '4');
  w.api.before = (req) => (req.path === '/api/v1/submissions' ? networkDown() : undefined);
  c.submit().catch(() => {});
  await until(() => w.submissions().length >= 1, 'first attempt');
  assert.equal(c.state, 'submitting');
  await c.close(); // the page is reloaded
  w.api.before = null;
  const again = await w.resume();
  await until(() => again.state === 'submitted', 'submitted after reload');
  const attempts = w.submissions();
  assert.ok(attempts.length >= 2);
  assert.equal(new Set(attempts.map((a) => a.headers['idempotency-key'])).size, 1, 'one key');
  assert.equal(new Set(attempts.map((a) => a.rawBody)).size, 1, 'identical body');
  assert.equal(w.api.papersFor(c.sessionId).length, 1);
});

test('reload after the server stored the paper but the answer was lost: the resend gets the same paper back', async () => {
  w = world();
  const c = await w.start();
  await c.setAnswer('q1', '4');
  let first = true;
  w.api.before = async (req) => {
    if (req.path !== '/api/v1/submissions' || !first) return undefined;
    first = false;
    await w.api.route(req.method, req.path, new Headers(req.headers), req.body, req.rawBody); // stored...
    return networkDown(); // ...but the response never arrives
  };
  c.submit().catch(() => {});
  await until(() => w.api.papersFor(c.sessionId).length === 1, 'paper stored');
  await c.close();
  const again = await w.resume();
  await until(() => again.state === 'submitted', 'submitted after reload');
  assert.equal(again.paper.paperId, w.api.papersFor(c.sessionId)[0].paperId);
  assert.equal(again.session.submit.replayed, true, 'Idempotent-Replayed: true');
  assert.equal(w.api.papersFor(c.sessionId).length, 1);
});

test('a final refusal ends in failed-final with the error surfaced', async () => {
  w = world();
  const c = await w.start();
  w.api.before = (req) =>
    req.path === '/api/v1/submissions'
      ? { status: 422, headers: { 'content-type': 'application/problem+json' }, body: { status: 422, code: 'IDEMPOTENCY_KEY_REUSED' } }
      : undefined;
  await assert.rejects(c.submit(), { code: 'IDEMPOTENCY_KEY_REUSED' });
  assert.equal(c.state, 'failed-final');
  assert.equal(c.status.state, 'error');
  assert.equal(c.status.error.code, 'IDEMPOTENCY_KEY_REUSED');
});

test('submit waits for an in-flight autosave (one request at a time) and does not wait for its retries', async () => {
  w = world();
  const c = await w.start();
  w.api.before = (req) => (req.method === 'PATCH' ? networkDown() : undefined);
  await c.setAnswer('q4', 'Paris');
  await w.timers.advance(1500); // autosave now retrying with backoff
  w.api.before = (req) => (req.method === 'PATCH' ? networkDown() : undefined);
  const paper = c.submit();
  await w.timers.advance(100);
  assert.deepEqual((await paper).answers.q4, { value: 'Paris', version: 1 }, 'the sheet carries the unsynced answer');
});

/** What this world's IndexedDB holds of SESSION_ID: its record, its answers, and the 'current' pointer. */
async function stored(indexedDB, sessionId) {
  const store = await openStore(indexedDB);
  try {
    return { session: await store.getSession(sessionId), answers: await store.getAnswers(sessionId),
      events: await store.getEvents(sessionId), current: await store.getMeta('current') };
  } finally {
    store.close();
  }
}

test('once the paper is confirmed the browser keeps only its receipt: no token, no answers, no unsent events; a reload shows the paper', async () => {
  w = world();
  const c = await w.start();
  await c.setAnswer('q4', 'Paris');
  w.api.before = (req) => (req.path.endsWith('/events') ? networkDown() : undefined); // the event stays unsent
  await c.recordEvent('BLUR');
  const before = await stored(w.indexedDB, c.sessionId);
  assert.equal(before.answers.size, 1, 'local first until the paper');
  assert.equal(before.events.length, 1);
  w.api.before = undefined;
  const paper = await c.submit();
  const { session, answers, events, current } = await stored(w.indexedDB, c.sessionId);
  assert.equal(events.length, 0);
  assert.equal(session.token, undefined, 'no token: nobody at this browser can resume the session');
  assert.equal(session.status, 'SUBMITTED');
  assert.equal(session.paperId, paper.paperId);
  assert.deepEqual(session.paper.questions, []);
  assert.equal(answers.size, 0);
  assert.equal(current, c.sessionId, 'the receipt stays the current session');
  assert.equal(c.answer('q4'), 'Paris', 'this tab still shows what was handed in');
  await w.closeAll();
  const again = await w.resume();
  assert.equal(again.state, 'submitted');
  assert.equal(again.paper.paperId, paper.paperId);
  assert.equal(again.answer('q4'), null);
});

test('a paper the server reports (auto-submit, a proctor) leaves only the receipt too', async () => {
  w = world();
  const c = await w.start();
  await c.setAnswer('q1', '4');
  const s = w.api.sessions.get(c.sessionId);
  s.status = 'SUBMITTED';
  s.paperId = 'paper-auto';
  await c.heartbeat();
  assert.equal(c.state, 'submitted');
  const { session, answers } = await stored(w.indexedDB, c.sessionId);
  assert.equal(session.token, undefined);
  assert.equal(session.paperId, 'paper-auto');
  assert.equal(answers.size, 0);
});

test('forget() removes everything of the session, receipt and current pointer included', async () => {
  w = world();
  const c = await w.start();
  await c.setAnswer('q4', 'Paris');
  await c.submit();
  await c.forget();
  const { session, answers, current } = await stored(w.indexedDB, c.sessionId);
  assert.equal(session, undefined);
  assert.equal(answers.size, 0);
  assert.equal(current, null);
  assert.equal(await w.resume(), null, 'nothing to resume on this browser');
});
