import { test, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { world, until, settle } from './support/harness.mjs';

let w;
afterEach(async () => w && (await w.closeAll()));

test('remaining time comes from the server deadline and the server clock, not the local clock', async () => {
  w = world({ serverSkewMs: 10 * 60_000 }); // the server is 10 minutes ahead of this device
  const c = await w.start();
  assert.equal(c.clock.offsetMs, 10 * 60_000);
  assert.equal(c.remainingMs(), 3_600_000);
  await w.timers.advance(60_000);
  assert.equal(c.remainingMs(), 3_540_000);
});

test('editing locks at the server deadline and the sheet is handed in', async () => {
  w = world({ serverSkewMs: 5_000 });
  const c = await w.start();
  await c.setAnswer('q4', 'Paris');
  const locks = [];
  c.on('lock', (l) => locks.push(l.reason));
  await w.timers.advance(3_600_000 - 1); // 1 ms before the deadline by the server's clock
  assert.equal(c.isEditable(), true);
  await w.timers.advance(2);
  await until(() => c.state === 'submitted', 'auto-submitted at deadline');
  assert.ok(locks.includes('deadline'));
  assert.equal(w.api.papersFor(c.sessionId)[0].answers.q4.value, 'Paris');
  await assert.rejects(c.setAnswer('q4', 'Lyon'), { code: 'EDITING_LOCKED' });
});

test('an extension learned from the server moves the lock', async () => {
  w = world();
  const c = await w.start({ autoSubmitAtDeadline: false });
  await w.timers.advance(3_600_000 - 10_000);
  w.api.sessions.get(c.sessionId).deadlineMs += 600_000;
  await c.heartbeat();
  await w.timers.advance(20_000);
  assert.equal(c.isEditable(), true);
  assert.equal(c.remainingMs(), 590_000);
});

test('heartbeat renews the token', async () => {
  w = world();
  const c = await w.start({ heartbeatMs: 30_000 });
  const before = c.session.token;
  await w.timers.advance(30_000);
  await settle();
  assert.notEqual(c.session.token, before);
  await c.setAnswer('q1', '4');
  await w.timers.advance(1500);
  assert.equal(w.patches().at(-1).headers.authorization, `Bearer ${c.session.token}`);
  assert.equal(c.status.state, 'saved');
});

test('heartbeat delivers each proctor command once (lastCommandId) and a takeover command locks this device', async () => {
  w = world();
  const c = await w.start();
  const commands = [];
  c.on('command', (cmd) => commands.push(cmd.type));
  w.api.pushCommand(c.sessionId, { type: 'WARNING', message: 'Eyes on your own screen' });
  await c.heartbeat();
  await c.heartbeat();
  assert.deepEqual(commands, ['WARNING']);
  const hb = w.api.log.filter((e) => e.path.endsWith('/heartbeat'));
  assert.deepEqual(hb.map((e) => e.query.lastCommandId), ['0', '1']);
  w.api.pushCommand(c.sessionId, { type: 'TAKEN_OVER', deviceEpoch: c.deviceEpoch }); // our own sign-in
  await c.heartbeat();
  assert.equal(c.isEditable(), true);
  w.api.pushCommand(c.sessionId, { type: 'TAKEN_OVER', deviceEpoch: c.deviceEpoch + 1 });
  await c.heartbeat();
  assert.equal(c.lockReason(), 'taken-over');
});

test('proctoring events carry client event ids and are resent until accepted', async () => {
  w = world();
  const c = await w.start({ eventsFlushMs: 1000 });
  let fail = true;
  w.api.before = (req) => (req.path.endsWith('/events') && fail ? new TypeError('fetch failed') : undefined);
  const id = await c.recordEvent('FOCUS_LOST', 'window blur');
  await w.timers.advance(5000);
  fail = false;
  await w.timers.advance(30_000);
  const posts = w.api.log.filter((e) => e.path.endsWith('/events'));
  assert.ok(posts.length >= 2);
  for (const p of posts) assert.deepEqual(p.body.events.map((e) => e.eventId), [id]);
  assert.equal(posts[0].body.events[0].type, 'FOCUS_LOST');
  assert.equal(posts[0].body.events[0].detail, 'window blur');
  assert.match(id, /^[A-Za-z0-9._:-]{1,64}$/, 'fits the server\'s eventId rule');
  assert.ok(w.api.events.get(c.sessionId).has(id));
  assert.equal((await c._store.getEvents(c.sessionId)).length, 0, 'outbox emptied');
});

test('a PASTE carries its length to the server; another type never does', async () => {
  w = world();
  const c = await w.start({ eventsFlushMs: 1000 });
  await c.recordEvent('PASTE', undefined, { length: 812 });
  await c.recordEvent('FOCUS_LOST', undefined, { length: 3 });
  await w.timers.advance(5000);
  const sent = w.api.log.filter((e) => e.path.endsWith('/events')).flatMap((p) => p.body.events);
  // Both share one instant of the fake clock, so their order is the outbox's random ids': not asserted here.
  const byType = Object.fromEntries(sent.map((e) => [e.type, e.length]));
  assert.equal(sent.length, 2);
  assert.deepEqual(byType, { PASTE: 812, FOCUS_LOST: undefined });
});

test('proctoring events are sent oldest first (the outbox is keyed by random event ids)', async () => {
  w = world();
  const c = await w.start({ eventsFlushMs: 1000 });
  const ids = [];
  for (let i = 0; i < 12; i++) {
    ids.push(await c.recordEvent('FOCUS_LOST'));
    await w.timers.advance(10); // each a little later than the one before
  }
  await w.timers.advance(5000);
  const sent = w.api.log.filter((e) => e.path.endsWith('/events')).flatMap((p) => p.body.events);
  assert.deepEqual(sent.map((e) => e.eventId), ids);
  assert.deepEqual(sent.map((e) => e.at), [...sent.map((e) => e.at)].sort());
});

test('one writer per session per browser (BroadcastChannel): a second tab is read-only until it takes over', async () => {
  w = world();
  // The probe window runs on the fake clock: keep it moving while a tab opens.
  const opened = async (promise) => {
    let client = null;
    promise.then((c) => (client = c));
    await until(async () => {
      await w.timers.advance(50);
      return client;
    }, 'tab opened');
    return client;
  };
  const first = await opened(w.start({ BroadcastChannel }));
  const second = await opened(w.resume({ BroadcastChannel }));
  assert.equal(second.lockReason(), 'other-tab');
  await assert.rejects(second.setAnswer('q1', '4'), { code: 'EDITING_LOCKED' });
  assert.equal(first.isEditable(), true);
  await second.takeOverFromOtherTab();
  await until(() => first.lockReason() === 'other-tab', 'first tab yields');
  await second.setAnswer('q1', '4');
  await w.timers.advance(1500);
  assert.deepEqual(w.api.currentAnswers(second.sessionId), { q1: '4' });
});

test('Web Locks: the lock is requested ifAvailable and a steal makes the old holder read-only', async () => {
  w = world();
  const held = new Map();
  const locks = {
    request(name, opts, cb) {
      if (held.has(name) && !opts.steal) return Promise.resolve(cb(null));
      const previous = held.get(name);
      return new Promise((resolve, reject) => {
        held.set(name, { reject });
        previous?.reject(new DOMException('stolen', 'AbortError'));
        Promise.resolve(cb({ name })).then(resolve, reject);
      });
    },
  };
  const first = await w.start({ locks });
  const second = await w.resume({ locks });
  assert.equal(first.lockMechanism, 'web-locks');
  assert.equal(second.lockReason(), 'other-tab');
  await second.takeOverFromOtherTab();
  await settle();
  assert.equal(first.lockReason(), 'other-tab');
  assert.equal(second.isEditable(), true);
});
