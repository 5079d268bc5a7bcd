import { test, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { IDBFactory } from 'fake-indexeddb';
import { world, settle, until, FakeTimers } from './support/harness.mjs';
import { ExamClient } from '../sdk/index.js';
import { LiveChannel, DEFAULT_LIVE, liveUrl } from '../sdk/live.js';

let w;
afterEach(async () => w && (await w.closeAll()));

const CREDENTIALS = { examId: null, candidateId: 'c-001', accessCode: 'code-001' };

/** A client with the live channel on the fake API's in-memory sockets. */
async function liveClient(extra = {}) {
  const c = await w.start({ WebSocket: w.api.WebSocket, ...extra });
  const states = [];
  c.on('live', (e) => states.push(e.state));
  const commands = [];
  c.on('command', (cmd) => commands.push(cmd));
  await settle();
  return { c, states, commands };
}

const heartbeats = () => w.api.log.filter((e) => e.path.endsWith('/heartbeat'));

test('live channel: opens with the token as second subprotocol, TIME sets the clock and the deadline, pings are answered', async () => {
  w = world({ serverSkewMs: 90_000 });
  const c = await w.start({ WebSocket: w.api.WebSocket });
  await until(() => c.liveState === 'open', 'socket open');
  const [listener] = w.api.liveSockets(c.sessionId);
  assert.ok(listener, 'the fake holds one authenticated socket for the session');
  assert.equal(listener.epoch, c.deviceEpoch);
  assert.equal(heartbeats().length, 1, 'one catch-up heartbeat on open');
  assert.equal(c.clock.offsetMs, 90_000);

  // The server moves the deadline (an extension whose command we are not told about): TIME shows it.
  w.api.sessions.get(c.sessionId).deadlineMs += 600_000;
  w.api.pushTime();
  await settle();
  assert.equal(c.remainingMs(), 3_600_000 + 600_000);

  // The server's clock jumps: a pushed TIME has no round trip to measure, the next ping's answer corrects ours.
  w.api.now = () => w.timers.now() + 120_000;
  w.api.pushTime();
  await settle();
  assert.equal(c.clock.offsetMs, 90_000);
  await w.timers.advance(DEFAULT_LIVE.pingMs);
  assert.equal(c.clock.offsetMs, 120_000);
  assert.equal(c.liveState, 'open');
  assert.equal(w.api.liveConnections, 1, 'still the same socket');
});

test('a command pushed over the socket is handled once, even when the heartbeat brings it too', async () => {
  w = world();
  const { c, commands } = await liveClient();
  await until(() => c.liveState === 'open', 'socket open');
  await settle();
  // The heartbeat left with lastCommandId=0; the command is pushed (socket) before it is answered.
  w.api.before = (req) => {
    if (req.path.endsWith('/heartbeat')) {
      w.api.before = null;
      w.api.pushCommand(c.sessionId, { type: 'WARNING', message: 'Eyes on your own screen' });
    }
    return undefined;
  };
  const body = await c.heartbeat();
  await settle();
  assert.equal(body.commands.length, 1, 'the heartbeat returned the command as well');
  assert.deepEqual(commands.map((x) => [x.id, x.type]), [[1, 'WARNING']]);
  await c.heartbeat();
  assert.equal(heartbeats().at(-1).query.lastCommandId, '1');
  assert.equal((await c._store.getSession(c.sessionId)).lastCommandId, 1, 'persisted for a reload');
  // EXTENDED over the socket moves the deadline at once.
  const deadline = new Date(c.deadline + 300_000).toISOString();
  w.api.pushCommand(c.sessionId, { type: 'EXTENDED', deadline, seconds: 300 });
  await settle();
  assert.equal(c.deadline, Date.parse(deadline));
  assert.deepEqual(commands.map((x) => x.type), ['WARNING', 'EXTENDED']);
});

test('a command sent while the socket is down arrives once after the reconnect (catch-up heartbeat)', async () => {
  w = world();
  const { c, states, commands } = await liveClient();
  await until(() => c.liveState === 'open', 'socket open');
  w.api.liveRefuse = true; // the network is gone: no socket can open
  w.api.cutLive();
  await settle();
  assert.equal(c.liveState, 'closed');
  w.api.pushCommand(c.sessionId, { type: 'WARNING', message: 'sent while you were away' });
  await w.timers.advance(500); // first backoff (random 0.5 × 1 s): refused again
  assert.notEqual(c.liveState, 'open');
  assert.deepEqual(commands, [], 'nothing could reach us');
  w.api.liveRefuse = false;
  await w.timers.advance(1000); // second backoff (0.5 × 2 s)
  await until(() => c.liveState === 'open', 'reconnected');
  await settle();
  assert.deepEqual(commands.map((x) => x.message), ['sent while you were away']);
  assert.equal(heartbeats().at(-1).query.lastCommandId, '0', 'the catch-up asked from what we had');
  w.api.pushCommand(c.sessionId, { type: 'WARNING', message: 'live again' });
  await settle();
  await c.heartbeat();
  assert.deepEqual(commands.map((x) => x.message), ['sent while you were away', 'live again']);
  assert.deepEqual([states[0], states.at(-1)], ['closed', 'open'], 'closed, then (after refused tries) open again');
});

test('the browser\'s online event cuts a reconnect backoff short', async () => {
  w = world();
  const window = new EventTarget();
  const { c } = await liveClient({ window, live: { baseMs: 60_000 } });
  await until(() => c.liveState === 'open', 'socket open');
  w.api.cutLive();
  await settle();
  assert.equal(c.liveState, 'closed', 'waiting 30 s (random 0.5 × 60 s)');
  window.dispatchEvent(new Event('online'));
  await until(() => c.liveState === 'open', 'reconnected at once');
  assert.equal(w.api.liveConnections, 2);
});

test('a socket command after a gap in ids fetches the missed ones first, in order, each once', async () => {
  w = world();
  const { c, commands } = await liveClient();
  await until(() => c.liveState === 'open', 'socket open');
  await settle();
  // Command 1 is queued for the heartbeat only (as if published while this replica resubscribed).
  const sockets = w.api.liveListeners;
  w.api.liveListeners = new Set();
  w.api.pushCommand(c.sessionId, { type: 'WARNING', message: 'one' });
  w.api.liveListeners = sockets;
  w.api.pushCommand(c.sessionId, { type: 'WARNING', message: 'two' });
  await settle();
  assert.deepEqual(commands.map((x) => x.message), ['one', 'two']);
  // The same gap while the heartbeat fails: the socket's command is not held back.
  w.api.liveListeners = new Set();
  w.api.pushCommand(c.sessionId, { type: 'WARNING', message: 'three' });
  w.api.liveListeners = sockets;
  w.api.before = (req) => (req.path.endsWith('/heartbeat') ? { status: 503, headers: {}, body: null } : undefined);
  w.api.pushCommand(c.sessionId, { type: 'WARNING', message: 'four' });
  await settle();
  assert.deepEqual(commands.map((x) => x.message), ['one', 'two', 'four']);
});

test('backoff: full jitter under a capped exponential ceiling', async () => {
  const timers = new FakeTimers();
  const randoms = [0, 0.999, 0.5, 0.999, 0.25, 0.999, 0.999, 0.999, 0.999, 0.999];
  let r = 0;
  class Refused {
    constructor() {
      setImmediate(() => this.onclose?.({ code: 1006 }));
    }

    close() {}
  }
  const waits = [];
  const channel = new LiveChannel({
    url: () => 'ws://x/api/v1/sessions/s/live',
    token: () => 't',
    WebSocket: Refused,
    timers,
    random: () => randoms[r++ % randoms.length],
    now: timers.now,
    options: { baseMs: 1000, capMs: 8000, fallbackAfter: 100 },
    onMessage: () => {},
    onState: (state, detail) => state === 'closed' && waits.push(detail.retryInMs),
    onFinal: () => {},
  });
  channel.start();
  for (let i = 0; i < 10; i++) {
    await settle();
    await timers.advance(8000);
  }
  channel.stop();
  assert.ok(waits.length >= 8, `${waits.length} reconnects`);
  waits.slice(0, 8).forEach((ms, attempt) => {
    const ceiling = Math.min(8000, 1000 * 2 ** attempt);
    assert.ok(ms >= 0 && ms < ceiling, `attempt ${attempt}: ${ms} in [0, ${ceiling})`);
  });
  assert.deepEqual(waits.slice(0, 5), [0, 1998, 2000, 7992, 2000], 'random × ceiling, capped at 8 s');
});

test('backoff: sockets closed right after they open still back off; one that lasted starts again from the base', async () => {
  const timers = new FakeTimers();
  let lifeMs = 0;
  class Brief {
    constructor() {
      setImmediate(() => {
        this.readyState = 1;
        this.onmessage?.({ data: '{"type":"TIME"}' });
        timers.setTimeout(() => this.onclose?.({ code: 1011 }), lifeMs);
      });
    }

    send() {}

    close() {}
  }
  const waits = [];
  const channel = new LiveChannel({
    url: () => 'ws://x/api/v1/sessions/s/live',
    token: () => 't',
    WebSocket: Brief,
    timers,
    random: () => 0.999,
    now: timers.now,
    options: { baseMs: 1000, capMs: 30_000, pingMs: 20_000 },
    onMessage: () => {},
    onState: (state, detail) => state === 'closed' && waits.push(detail.retryInMs),
    onFinal: () => {},
  });
  channel.start();
  for (let i = 0; i < 4; i++) await timers.advance(16_000);
  assert.deepEqual(waits.slice(0, 4), [999, 1998, 3996, 7992], 'each brief socket doubles the ceiling');
  lifeMs = 60_000; // the next ones last a minute
  await timers.advance(200_000);
  channel.stop();
  assert.equal(waits.at(-1), 999, 'back to the base after a socket that lasted');
});

test('a socket that goes silent is detected by missed pings and replaced', async () => {
  w = world();
  const { c, states } = await liveClient();
  await until(() => c.liveState === 'open', 'socket open');
  await settle();
  w.api.dropLive(); // no close frame, no messages, either way
  await w.timers.advance(DEFAULT_LIVE.deadAfterMs - 1);
  assert.equal(c.liveState, 'open', 'not yet: a ping answer may still come');
  await w.timers.advance(1);
  assert.equal(states.at(-1), 'closed');
  await w.timers.advance(1000);
  await until(() => c.liveState === 'open', 'a new socket');
  assert.equal(w.api.liveConnections, 2);
  assert.equal(w.api.liveSockets(c.sessionId).length, 1);
});

test('sockets that never open → fallback: the heartbeat runs at its normal rate, a socket is tried again later', async () => {
  w = world();
  w.api.liveRefuse = true;
  const { c, states } = await liveClient({ heartbeatMs: 30_000, live: { fallbackAfter: 3, fallbackRetryMs: 600_000 } });
  await w.timers.advance(10_000); // three refused attempts within the first backoffs
  assert.equal(c.liveState, 'fallback');
  assert.equal(w.api.liveAttempts, 3, 'fallback after the third refused attempt');
  assert.equal(states.at(-1), 'fallback');
  const before = heartbeats().length;
  await w.timers.advance(120_000);
  assert.equal(heartbeats().length - before, 4, 'every 30 s, as without sockets');
  w.api.liveRefuse = false;
  await w.timers.advance(600_000); // the next try (between half and all of fallbackRetryMs) works
  await until(() => c.liveState === 'open', 'socket after fallback');
  // With the socket open the heartbeat slows down, and still renews the token.
  await settle();
  const open = heartbeats().length;
  const token = c.session.token;
  await w.timers.advance(600_000);
  assert.equal(heartbeats().length - open, 2, 'every 5 min while the socket is open');
  assert.notEqual(c.session.token, token, 'token renewed');
  w.api.cutLive(); // socket lost: the normal rate comes back at once
  w.api.liveRefuse = true;
  await settle();
  const lost = heartbeats().length;
  await w.timers.advance(60_000);
  assert.equal(heartbeats().length - lost, 2);
});

test('the slowed heartbeat stays within half of what is left of the token, whatever its lifetime', async () => {
  w = world();
  w.api.tokenTtlMs = 4 * 60_000; // a server configured with 4-minute candidate tokens
  const { c } = await liveClient({ heartbeatMs: 30_000 });
  await until(() => c.liveState === 'open', 'socket open');
  await settle();
  const before = heartbeats().length;
  await w.timers.advance(10 * 60_000);
  assert.equal(heartbeats().length - before, 5, 'every 2 min, not every 5');
  assert.ok(c.session.tokenExpiresMs > w.timers.now(), 'the token never ran out');
});

test('another device signs in: its TAKEN_OVER and close code 4409 lock editing on this one', async () => {
  w = world();
  const { c } = await liveClient();
  await until(() => c.liveState === 'open', 'socket open');
  await c.setAnswer('q4', 'Paris');
  await w.timers.advance(1500);
  const locks = [];
  c.on('lock', (l) => locks.push(l.reason));
  const other = await ExamClient.start({ ...CREDENTIALS, examId: w.examId }, w.options({ indexedDB: new IDBFactory(), WebSocket: w.api.WebSocket }));
  await until(() => c.lockReason() === 'taken-over', 'locked by the socket');
  assert.ok(locks.includes('taken-over'));
  assert.equal(c.liveState, 'off', 'no reconnect after 4409');
  await assert.rejects(c.setAnswer('q4', 'Lyon'), { code: 'EDITING_LOCKED' });
  await until(() => other.liveState === 'open', 'the new device listens');
  assert.equal(other.isEditable(), true, 'its own sign-in TAKEN_OVER does not lock the new device');
  await other.close();
});

test('close code 4409 alone (no command seen) locks editing as the heartbeat\'s SESSION_TAKEN_OVER does', async () => {
  w = world();
  const { c } = await liveClient({ heartbeatMs: 30_000 });
  await until(() => c.liveState === 'open', 'socket open');
  for (const l of w.api.liveSockets(c.sessionId)) w.api.closeListener(l, 4409, 'SESSION_TAKEN_OVER');
  await settle();
  assert.equal(c.lockReason(), 'taken-over');
  assert.equal(c.status.error.code, 'SESSION_TAKEN_OVER');
  const before = heartbeats().length;
  await w.timers.advance(120_000);
  assert.equal(heartbeats().length, before, 'the heartbeat stopped too');
});

test('4401 asks the candidate to sign in again (answers kept); 4403 stops only the socket', async () => {
  w = world();
  const first = await liveClient();
  await until(() => first.c.liveState === 'open', 'socket open');
  for (const l of w.api.liveSockets(first.c.sessionId)) w.api.closeListener(l, 4401, 'UNAUTHORIZED');
  await settle();
  assert.equal(first.c.status.error.code, 'AUTH_REQUIRED');
  assert.equal(first.c.liveState, 'off');
  await w.closeAll();

  w = world();
  const second = await liveClient({ heartbeatMs: 30_000 });
  await until(() => second.c.liveState === 'open', 'socket open');
  for (const l of w.api.liveSockets(second.c.sessionId)) w.api.closeListener(l, 4403, 'FORBIDDEN');
  await settle();
  assert.equal(second.c.liveState, 'off');
  assert.equal(second.c.isEditable(), true);
  const before = heartbeats().length;
  await w.timers.advance(60_000);
  assert.equal(heartbeats().length - before, 2, 'HTTP heartbeat at its normal rate');
  assert.equal(w.api.liveConnections, 1, 'no reconnect');
});

test('a forced submission over the socket ends editing with the paper; live: false never opens a socket', async () => {
  w = world();
  const { c } = await liveClient();
  await until(() => c.liveState === 'open', 'socket open');
  const submitted = [];
  c.on('submitted', (p) => submitted.push(p));
  const s = w.api.sessions.get(c.sessionId);
  s.status = 'SUBMITTED';
  s.paperId = 'paper-forced';
  w.api.pushCommand(c.sessionId, { type: 'FORCE_SUBMITTED', paperId: 'paper-forced' });
  await settle();
  assert.equal(c.state, 'submitted');
  assert.equal(c.lockReason(), 'submitted');
  assert.deepEqual(submitted, [{ paperId: 'paper-forced' }]);
  assert.equal(c.liveState, 'off');
  await w.closeAll();

  w = world();
  const off = await w.start({ WebSocket: w.api.WebSocket, live: false });
  await settle();
  assert.equal(off.liveState, 'off');
  assert.equal(w.api.liveConnections, 0);
});

test('liveUrl: ws or wss, same origin or the session service\'s base', () => {
  assert.equal(liveUrl('', 's 1', 'https://exam.example/page/'), 'wss://exam.example/api/v1/sessions/s%201/live');
  assert.equal(liveUrl('http://127.0.0.1:8081', 's1', 'https://exam.example/'), 'ws://127.0.0.1:8081/api/v1/sessions/s1/live');
});

test('PAUSED stops the clock (no deadline lock, answers still saved) and RESUMED runs it again with the moved deadline', async () => {
  w = world();
  const { c, commands } = await liveClient();
  await until(() => c.liveState === 'open', 'socket open');
  const pauses = [];
  c.on('pause', (e) => pauses.push(e.paused));
  const left = c.remainingMs();
  const held = w.api.sessions.get(c.sessionId); // the server pauses the session (heartbeats and TIME then say so)
  held.status = 'PAUSED';
  held.pausedAtMs = w.api.now();
  w.api.pushCommand(c.sessionId, { type: 'PAUSED', pausedAt: new Date(held.pausedAtMs).toISOString(), deadline: new Date(c.deadline).toISOString(), remainingMs: left });
  await settle();
  assert.equal(c.isPaused(), true);
  await w.timers.advance(left + 60_000); // past the deadline as it was before the pause
  assert.equal(c.remainingMs(), left, 'the time left stood still');
  assert.equal(c.isEditable(), true, 'no deadline lock while paused');
  await c.setAnswer('q4', 'Paris');
  await w.timers.advance(5_000);
  assert.equal(c.pendingCount(), 0, 'answers are still saved while paused');
  const moved = c.deadline + (w.api.now() - held.pausedAtMs);
  held.status = 'IN_PROGRESS';
  held.deadlineMs = moved;
  w.api.pushCommand(c.sessionId, { type: 'RESUMED', deadline: new Date(moved).toISOString(), remainingMs: left });
  await settle();
  assert.equal(c.isPaused(), false);
  assert.equal(c.deadline, moved);
  assert.ok(c.remainingMs() <= left && c.remainingMs() > left - 1_000, 'the clock runs again from where it stopped');
  assert.deepEqual(pauses, [true, false]);
  assert.deepEqual(commands.map((x) => x.type), ['PAUSED', 'RESUMED']);
});

test('an exam-wide PAUSED (one broadcast, no id, no time of its own) freezes this device\'s time; RESUMED moves its deadline by the pause; a session paused on its own stays paused', async () => {
  w = world();
  const { c, commands } = await liveClient();
  await until(() => c.liveState === 'open', 'socket open');
  const held = w.api.sessions.get(c.sessionId);
  const before = c.deadline;
  const left = c.remainingMs();
  held.status = 'PAUSED';
  held.pausedAtMs = w.api.now();
  w.api.broadcast(held.examId, { type: 'PAUSED', pausedAt: new Date(held.pausedAtMs).toISOString(), byExam: true });
  await settle();
  assert.equal(c.isPaused(), true);
  await w.timers.advance(90_000);
  assert.equal(c.remainingMs(), left, 'frozen at what this device had left');
  held.status = 'IN_PROGRESS';
  held.deadlineMs += 90_000;
  w.api.broadcast(held.examId, { type: 'RESUMED', byExam: true });
  await settle();
  assert.equal(c.isPaused(), false);
  assert.ok(Math.abs(c.deadline - (before + 90_000)) < 1_000, 'the deadline moved by the pause');
  assert.ok(commands.every((x) => x.id === undefined), 'broadcasts carry no id');

  // Paused on its own: the exam's resume does not resume it.
  held.status = 'PAUSED';
  held.pausedAtMs = w.api.now();
  w.api.pushCommand(c.sessionId, { type: 'PAUSED', pausedAt: new Date(held.pausedAtMs).toISOString(), deadline: new Date(held.deadlineMs).toISOString(), remainingMs: c.remainingMs(), byExam: false });
  await settle();
  w.api.broadcast(held.examId, { type: 'RESUMED', byExam: true });
  await settle();
  assert.equal(c.isPaused(), true, 'still paused: only its own resume lifts it');
});
