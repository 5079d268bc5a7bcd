import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError, ClientCodes } from '../sdk/errors.js';
import { isRetryable, parseRetryAfter, retryDelayMs, DEFAULT_RETRY } from '../sdk/retry.js';
import { Http } from '../sdk/http.js';
import { ServerClock } from '../sdk/time.js';
import { FakeTimers, settle } from './support/harness.mjs';

const err = (status, code, extra = {}) => new ApiError({ status, code, ...extra });

test('retryable: network errors, timeouts, 5xx, 429 and 409 REQUEST_IN_PROGRESS only', () => {
  assert.ok(isRetryable(err(0, ClientCodes.NETWORK_ERROR)));
  assert.ok(isRetryable(err(0, ClientCodes.TIMEOUT)));
  for (const s of [500, 502, 503, 504]) assert.ok(isRetryable(err(s, 'X')), `${s}`);
  assert.ok(isRetryable(err(429, 'TOO_MANY_REQUESTS')));
  assert.ok(isRetryable(err(409, 'REQUEST_IN_PROGRESS')));
  for (const [s, c] of [
    [409, 'SESSION_TAKEN_OVER'],
    [409, 'SESSION_CLOSED'],
    [400, 'INVALID_ANSWER'],
    [401, 'UNAUTHORIZED'],
    [403, 'FORBIDDEN'],
    [404, 'NOT_FOUND'],
    [413, 'PAYLOAD_TOO_LARGE'],
    [422, 'IDEMPOTENCY_KEY_REUSED'],
  ]) assert.equal(isRetryable(err(s, c)), false, `${s} ${c} is final`);
  assert.equal(isRetryable(err(0, ClientCodes.ABORTED)), false);
});

test('Retry-After: delay-seconds and HTTP-date', () => {
  const now = Date.parse('2026-12-01T08:00:00Z');
  assert.equal(parseRetryAfter('7', now), 7000);
  assert.equal(parseRetryAfter('Tue, 01 Dec 2026 08:00:05 GMT', now), 5000);
  assert.equal(parseRetryAfter('Tue, 01 Dec 2026 07:00:00 GMT', now), 0);
  assert.equal(parseRetryAfter(null, now), null);
  assert.equal(parseRetryAfter('soon', now), null);
});

test('backoff is full jitter under a capped exponential ceiling; Retry-After is a floor', () => {
  const policy = { ...DEFAULT_RETRY, baseMs: 100, capMs: 1000 };
  assert.equal(retryDelayMs(0, null, policy, () => 0), 0);
  assert.equal(retryDelayMs(0, null, policy, () => 0.999), 99);
  assert.equal(retryDelayMs(3, null, policy, () => 0.999), 799);
  assert.equal(retryDelayMs(20, null, policy, () => 0.999), 999, 'capped');
  assert.equal(retryDelayMs(0, { retryAfterMs: 5000 }, policy, () => 0), 5000);
  assert.ok(retryDelayMs(0, { retryAfterMs: 5000 }, policy, () => 0.999) < 5100);
  assert.equal(retryDelayMs(0, { retryAfterMs: 10 ** 9 }, policy, () => 0), policy.maxRetryAfterMs, 'a huge Retry-After is bounded');
});

function http(fetch, timers, extra = {}) {
  return new Http({
    fetch,
    baseUrls: { session: 'http://s', answer: 'http://a', submission: 'http://sub', grading: 'http://g' },
    clock: new ServerClock(timers.now),
    timers,
    random: () => 0.5,
    timeoutMs: 1000,
    retry: { baseMs: 100, capMs: 1000 },
    ...extra,
  });
}

const problem = (status, code, headers = {}) =>
  new Response(JSON.stringify({ status, code, title: code }), { status, headers: { 'content-type': 'application/problem+json', ...headers } });

test('call() retries 503 with Retry-After, 429 and 409 REQUEST_IN_PROGRESS, then succeeds', async () => {
  const timers = new FakeTimers();
  const answers = [
    problem(503, 'UNAVAILABLE', { 'retry-after': '3' }),
    problem(429, 'TOO_MANY_REQUESTS', { 'retry-after': '2' }),
    problem(409, 'REQUEST_IN_PROGRESS'),
    new Response('{"ok":true}', { status: 200 }),
  ];
  let calls = 0;
  const waits = [];
  const h = http(async () => answers[calls++], timers);
  const done = h.call('answer', 'GET', '/x', {}, { onRetry: (e, a, d) => waits.push([e.status, d]) });
  await timers.advance(60_000);
  const res = await done;
  assert.equal(res.body.ok, true);
  assert.equal(calls, 4);
  assert.deepEqual(waits.map(([s]) => s), [503, 429, 409]);
  assert.ok(waits[0][1] >= 3000, 'waited at least Retry-After (3 s)');
  assert.ok(waits[1][1] >= 2000, 'waited at least Retry-After (2 s)');
});

test('call() does not retry a final 4xx and surfaces its code', async () => {
  const timers = new FakeTimers();
  let calls = 0;
  const h = http(async () => (calls++, problem(409, 'SESSION_TAKEN_OVER')), timers);
  await assert.rejects(h.call('answer', 'PATCH', '/x', { body: {} }), (e) => e.code === 'SESSION_TAKEN_OVER' && e.status === 409);
  assert.equal(calls, 1);
});

test('a request that hangs is aborted by the timeout and retried', async () => {
  const timers = new FakeTimers();
  let calls = 0;
  const fetch = (url, init) => {
    calls++;
    if (calls === 1) return new Promise((_, reject) => init.signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))));
    return Promise.resolve(new Response('{"ok":1}', { status: 200 }));
  };
  const seen = [];
  const h = http(fetch, timers);
  const done = h.call('answer', 'GET', '/x', {}, { onRetry: (e) => seen.push(e.code) });
  await timers.advance(5000);
  assert.equal((await done).body.ok, 1);
  assert.deepEqual(seen, [ClientCodes.TIMEOUT]);
});

test('network errors are retried until maxAttempts', async () => {
  const timers = new FakeTimers();
  let calls = 0;
  const h = http(async () => {
    calls++;
    throw new TypeError('fetch failed');
  }, timers);
  const done = h.call('answer', 'GET', '/x', {}, { retry: { maxAttempts: 3 } });
  const assertion = assert.rejects(done, (e) => e.code === ClientCodes.NETWORK_ERROR);
  await timers.advance(60_000);
  await assertion;
  assert.equal(calls, 3);
  await settle();
});

test('retries of an uncounted code (SESSIONS_BUSY) do not use up maxAttempts; others still do', async () => {
  const timers = new FakeTimers();
  let calls = 0;
  const busy = () => problem(429, 'SESSIONS_BUSY', { 'retry-after': '1' });
  const h = http(async () => (++calls <= 6 ? busy() : new Response('{"ok":true}', { status: 201 })), timers);
  const done = h.call('session', 'POST', '/api/v1/sessions', { body: {} }, { retry: { maxAttempts: 4, uncountedCodes: ['SESSIONS_BUSY'] } });
  await timers.advance(60_000);
  assert.equal((await done).body.ok, true);
  assert.equal(calls, 7, 'six refusals waited out, then served');

  let counted = 0;
  const capped = http(async () => (counted++, busy()), timers);
  const refused = capped.call('session', 'POST', '/api/v1/sessions', { body: {} }, { retry: { maxAttempts: 4 } });
  const assertion = assert.rejects(refused, (e) => e.code === 'SESSIONS_BUSY' && e.status === 429);
  await timers.advance(60_000);
  await assertion;
  assert.equal(counted, 4, 'without uncountedCodes a refusal is an attempt');
  await settle();
});
