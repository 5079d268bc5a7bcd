/**
 * Deterministic time for SDK tests: a fake clock and timers, driven by advance(); no test
 * sleeps or asserts on wall-clock timing. settle() lets promise chains and fake-indexeddb
 * (which completes requests on later event-loop turns) run to quiescence.
 */
import { IDBFactory } from 'fake-indexeddb';
import { FakeExamApi } from './fake-api.mjs';
import { ExamClient } from '../../sdk/index.js';

export async function settle(turns = 30) {
  for (let i = 0; i < turns; i++) await new Promise((r) => setImmediate(r));
}

/** Wait (in event-loop turns, not time) until predicate() holds. */
export async function until(predicate, what = 'condition', turns = 2000) {
  for (let i = 0; i < turns; i++) {
    if (await predicate()) return;
    await new Promise((r) => setImmediate(r));
  }
  throw new Error(`never happened: ${what}`);
}

export class FakeTimers {
  constructor(start = Date.parse('2026-12-01T08:00:00Z')) {
    this.time = start;
    this.seq = 0;
    this.pending = new Map();
    this.delays = []; // every delay asked for, for assertions on backoff
  }

  now = () => this.time;

  setTimeout = (fn, ms) => {
    const id = ++this.seq;
    this.delays.push(ms);
    this.pending.set(id, { at: this.time + Math.max(0, ms || 0), fn, id });
    return id;
  };

  clearTimeout = (id) => {
    this.pending.delete(id);
  };

  /** Move time forward, firing due timers in order and settling between them. */
  async advance(ms) {
    const target = this.time + ms;
    await settle();
    for (;;) {
      const next = [...this.pending.values()].filter((t) => t.at <= target).sort((a, b) => a.at - b.at || a.id - b.id)[0];
      if (!next) break;
      this.pending.delete(next.id);
      this.time = Math.max(this.time, next.at);
      next.fn();
      await settle();
    }
    this.time = target;
    await settle();
  }
}

/**
 * A fresh world: fake clock, fake API (its clock = ours + serverSkewMs), a private
 * IndexedDB, and helpers to open clients on it.
 */
export function world({ serverSkewMs = 0, clientOptions = {} } = {}) {
  const timers = new FakeTimers();
  const api = new FakeExamApi({ now: () => timers.now() + serverSkewMs });
  const indexedDB = new IDBFactory();
  const examId = api.createExam();
  const options = (extra = {}) => ({
    fetch: api.fetch,
    indexedDB,
    timers,
    now: timers.now,
    random: () => 0.5,
    locks: null,
    BroadcastChannel: null,
    window: null,
    heartbeatMs: 0,
    WebSocket: null, // no live channel unless a test asks for one (api.WebSocket)
    ...clientOptions,
    ...extra,
  });
  const clients = [];
  return {
    timers,
    api,
    indexedDB,
    examId,
    options,
    async start(extra) {
      const c = await ExamClient.start({ examId, candidateId: 'c-001', accessCode: 'code-001' }, options(extra));
      clients.push(c);
      await settle();
      return c;
    },
    async resume(extra) {
      const c = await ExamClient.resume(undefined, options(extra));
      if (c) clients.push(c);
      await settle();
      return c;
    },
    async closeAll() {
      for (const c of clients.splice(0)) await c.close().catch(() => {});
    },
    patches: () => api.log.filter((e) => e.method === 'PATCH'),
    submissions: () => api.log.filter((e) => e.method === 'POST' && e.path === '/api/v1/submissions'),
  };
}

export const networkDown = () => new TypeError('fetch failed');
