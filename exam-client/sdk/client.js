/**
 * ExamClient: one candidate's session in this browser.
 *
 *  - local first: setAnswer() writes IndexedDB (stamped with the device epoch and the
 *    session's persisted, monotonic version counter) before anything else;
 *  - autosave: dirty answers are sent as one delta after a debounce, through a serial queue
 *    (at most one draft/submit request in flight per session), retried while they can succeed;
 *  - reconcile: on open, after a generation change and after stale answers, the server's
 *    draft is fetched and merged per question by stamp; what the server lacks is pushed;
 *  - submit: editing → submitting → submitted | failed-final; the Idempotency-Key and the
 *    exact body are in IndexedDB before the first attempt, so a reload resends them byte for byte;
 *  - time: the server's clock (offset from every response) and the server's deadline.
 *
 * This file holds the session's state, sign-in, reading and the lifecycle; each concern's
 * behaviour is a module of its own: autosave.js, reconcile.js, submit.js, commands.js (server
 * time, heartbeat and the live channel), events.js (proctoring).
 */
import { ApiError, ClientCodes } from './errors.js';
import { Http, resolveBaseUrls } from './http.js';
import { DEFAULT_RETRY } from './retry.js';
import { ServerClock, parseTime } from './time.js';
import { NamedTimers } from './timers.js';
import { openStore } from './store.js';
import { sameValue } from './merge.js';
import { invalidReason, DEFAULT_MAX_VALUE_BYTES } from './validate.js';
import { WriterLock } from './writer-lock.js';
import { DEFAULT_LIVE } from './live.js';
import { isDirty, deadlineFrom } from './records.js';
import { autosaveMethods } from './autosave.js';
import { reconcileMethods } from './reconcile.js';
import { submitMethods } from './submit.js';
import { commandMethods } from './commands.js';
import { eventMethods } from './events.js';
import { reviewMethods, isReservedEntry } from './review.js';

export const DEFAULT_OPTIONS = Object.freeze({
  baseUrl: '',
  baseUrls: {},
  dbName: 'exam-client',
  debounceMs: 1500,
  maxWaitMs: 10_000, // continuous typing still saves at least this often
  timeoutMs: 15_000,
  heartbeatMs: 30_000,
  eventsFlushMs: 2_000,
  autoSubmitAtDeadline: true,
  maxRequestBytes: 900 * 1024, // under the server's 1 MiB per request
  maxValueBytes: DEFAULT_MAX_VALUE_BYTES,
  retry: DEFAULT_RETRY,
  // The live WebSocket channel: true (DEFAULT_LIVE), false (HTTP heartbeat only), or overrides.
  live: true,
});

export const STATUS_MESSAGES = Object.freeze({
  saved: 'All answers saved.',
  saving: 'Saving…',
  'offline-saved-locally': 'Network is poor — your answers are saved on this device and will sync automatically.',
  syncing: 'Syncing your answers with the server…',
  submitting: 'Submitting your answers…',
  submitted: 'Your answers have been submitted.',
  error: 'Your answers are saved on this device, but the server refused them.',
});

function environment(options) {
  const g = globalThis;
  return {
    fetch: options.fetch ?? ((...a) => g.fetch(...a)),
    indexedDB: options.indexedDB ?? g.indexedDB,
    timers: options.timers ?? { setTimeout: (f, ms) => g.setTimeout(f, ms), clearTimeout: (t) => g.clearTimeout(t) },
    now: options.now ?? (() => Date.now()),
    random: options.random ?? Math.random,
    locks: options.locks !== undefined ? options.locks : g.navigator?.locks,
    BroadcastChannel: options.BroadcastChannel !== undefined ? options.BroadcastChannel : g.BroadcastChannel,
    uuid: options.uuid ?? defaultUuid,
    window: options.window !== undefined ? options.window : typeof g.window !== 'undefined' ? g.window : null,
    // Node 20 has none: tests inject one (null = no sockets, HTTP heartbeat only).
    WebSocket: options.WebSocket !== undefined ? options.WebSocket : g.WebSocket,
  };
}

export function defaultUuid() {
  const c = globalThis.crypto;
  if (typeof c?.randomUUID === 'function') return c.randomUUID();
  // randomUUID needs a secure context; getRandomValues does not.
  const b = c.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

function makeHttp(opts, env, clock) {
  return new Http({
    fetch: env.fetch,
    baseUrls: resolveBaseUrls(opts),
    clock,
    timers: env.timers,
    random: env.random,
    timeoutMs: opts.timeoutMs,
    retry: opts.retry,
  });
}

export class ExamClient {
  /**
   * Sign in: POST /api/v1/sessions. Starting again (reload without local data, another
   * device, expired token) returns the same session with a new token and a higher epoch;
   * this device's answers are kept and merged.
   */
  static async start(credentials, options = {}) {
    const opts = { ...DEFAULT_OPTIONS, ...options };
    const env = environment(options);
    const clock = new ServerClock(env.now);
    const http = makeHttp(opts, env, clock);
    const { examId, candidateId, accessCode } = credentials;
    const res = await http.call(
      'session',
      'POST',
      '/api/v1/sessions',
      // One key per sign-in: a retry or a late copy gets its own epoch back instead of taking the
      // session over from this very device.
      { body: { examId, candidateId, accessCode }, headers: { 'Idempotency-Key': env.uuid() } },
      // A replica refusing starts in a surge (429 SESSIONS_BUSY) paces the returns itself: those
      // retries are not the sign-in's four attempts, which are for an unreachable server.
      { retry: { maxAttempts: 4, uncountedCodes: ['SESSIONS_BUSY'] } },
    );
    const b = res.body || {};
    if (!b.sessionId || !b.token) throw new ApiError({ status: res.status, code: ClientCodes.HTTP_ERROR, detail: 'session answer without sessionId/token' });
    const store = await openStore(env.indexedDB, opts.dbName);
    const session = await store.tx(['sessions'], 'readwrite', async (s) => {
      const existing = await new Promise((resolve, reject) => {
        const r = s.sessions.get(b.sessionId);
        r.onsuccess = () => resolve(r.result);
        r.onerror = () => reject(r.error);
      });
      const next = {
        ...(existing || {}),
        sessionId: b.sessionId,
        examId: b.examId ?? examId,
        candidateId: b.candidateId ?? candidateId,
        token: b.token,
        tokenExpiresMs: parseTime(b.tokenExpiresAt),
        deviceEpoch: b.deviceEpoch,
        deadlineMs: deadlineFrom(b) ?? existing?.deadlineMs ?? null,
        graceMs: Number.isFinite(b.graceSeconds) ? b.graceSeconds * 1000 : existing?.graceMs ?? null,
        status: b.status ?? existing?.status ?? 'IN_PROGRESS',
        paperId: b.paperId ?? existing?.paperId ?? null,
        paper: b.paper ?? existing?.paper ?? { questions: [] },
        localVersion: existing?.localVersion ?? 0,
        generation: existing?.generation ?? null,
        serverVersion: existing?.serverVersion ?? 0,
        submit: existing?.submit ?? null,
        takenOver: false,
        closed: false,
        clockOffsetMs: clock.offsetMs,
      };
      s.sessions.put(next);
      return next;
    });
    await store.setMeta('current', session.sessionId);
    const client = new ExamClient(store, session, opts, env, clock);
    await client._open();
    return client;
  }

  /**
   * Reopen the session this browser was working on (or `sessionId`) from IndexedDB alone:
   * works offline. Resolves null when there is none.
   */
  static async resume(sessionId, options = {}) {
    const opts = { ...DEFAULT_OPTIONS, ...options };
    const env = environment(options);
    const store = await openStore(env.indexedDB, opts.dbName);
    const id = sessionId ?? (await store.getMeta('current'));
    const session = id ? await store.getSession(id) : null;
    if (!session) {
      store.close();
      return null;
    }
    const clock = new ServerClock(env.now, session.clockOffsetMs || 0);
    const client = new ExamClient(store, session, opts, env, clock);
    await client._open();
    return client;
  }

  /**
   * Forget which session this browser works on (its data stays: a submitted one's receipt, an unsubmitted one's
   * answers). `forget()` removes a session's data too.
   */
  static async clearCurrent(options = {}) {
    const opts = { ...DEFAULT_OPTIONS, ...options };
    const store = await openStore(environment(options).indexedDB, opts.dbName);
    await store.setMeta('current', null);
    store.close();
  }

  constructor(store, session, opts, env, clock) {
    this._store = store;
    this.session = session;
    this._opts = opts;
    this._env = env;
    this.clock = clock;
    this._http = makeHttp(opts, env, clock);
    this._answers = new Map();
    this._listeners = new Map();
    this._queue = Promise.resolve();
    this._abort = new AbortController();
    this._timers = new NamedTimers(this._env.timers);
    this._readOnly = false;
    this._running = false;
    this._offline = false;
    this._onlineHint = false;
    this._inFlight = null;
    this._finalError = null;
    this._authRequired = false;
    this._syncQueued = null;
    this._submitPromise = null;
    this._submitRequested = false;
    this._firstDirtyAt = null;
    this._lastStatusKey = '';
    this._lastCommandId = session.lastCommandId || 0;
    this._live = null;
    this.clock.onChange(() => this._scheduleDeadline());
  }

  // ---------------------------------------------------------------- reading

  get sessionId() {
    return this.session.sessionId;
  }

  get deviceEpoch() {
    return this.session.deviceEpoch;
  }

  /** Questions of the paper as the server sent them (no keys). */
  get questions() {
    return this.session.paper?.questions || [];
  }

  /** 'editing' | 'submitting' | 'submitted' | 'failed-final' */
  get state() {
    if (this.session.submit?.state) return this.session.submit.state;
    return this.session.status === 'SUBMITTED' ? 'submitted' : 'editing';
  }

  get paper() {
    return this.session.submit?.paper ?? (this.session.paperId ? { paperId: this.session.paperId } : null);
  }

  /**
   * The image of one of the exam's figures (a Markdown question's `![what it shows](figure:<id>)`) as a Blob, for an
   * object URL. Fetched with the session's token — never in a URL — and kept by the browser's cache (the server marks
   * figures immutable). Network failures and 503s are tried again up to three times; anything else throws ApiError.
   * @param {string} figureId
   * @returns {Promise<Blob>}
   */
  async figure(figureId) {
    if (!/^[0-9a-f]{64}$/.test(String(figureId))) throw new ApiError({ code: ClientCodes.HTTP_ERROR, detail: 'not a figure id' });
    const url = `${resolveBaseUrls(this._opts).session}/api/v1/exams/${encodeURIComponent(this.session.examId)}/figures/${figureId}`;
    for (let attempt = 1; ; attempt++) {
      let response;
      try {
        response = await this._env.fetch(url, { headers: { Authorization: `Bearer ${this.session.token}` }, signal: this._abort.signal });
      } catch (cause) {
        if (attempt >= 3 || this._abort.signal.aborted) {
          throw new ApiError({ code: ClientCodes.NETWORK_ERROR, detail: String(cause?.message || cause), cause });
        }
        await new Promise((resolve) => this._env.timers.setTimeout(resolve, 1000 * attempt));
        continue;
      }
      if (response.ok) return response.blob();
      if (response.status === 503 && attempt < 3) {
        await new Promise((resolve) => this._env.timers.setTimeout(resolve, 1000 * attempt));
        continue;
      }
      const problem = await response.json().catch(() => null);
      throw new ApiError({ status: response.status, code: problem?.code || ClientCodes.HTTP_ERROR, detail: problem?.detail || `HTTP ${response.status}` });
    }
  }

  /** The current answer of every question that has one: {questionId: value} (never the review flags). */
  answers() {
    const out = {};
    for (const [q, r] of this._answers) if (r.value !== null && r.value !== undefined && !isReservedEntry(q)) out[q] = r.value;
    return out;
  }

  answer(questionId) {
    return this._answers.get(questionId)?.value ?? null;
  }

  /** Questions changed here that the server has not acknowledged yet. */
  pendingCount() {
    let n = 0;
    for (const r of this._answers.values()) if (isDirty(r)) n++;
    return n;
  }

  serverNow() {
    return this.clock.now();
  }

  get deadline() {
    return this.session.deadlineMs ?? null;
  }

  /** Milliseconds left by the server's clock (never below 0), or null without a deadline. */
  remainingMs() {
    if (this.session.deadlineMs == null) return null;
    // Paused by a proctor: the time left stands still; the deadline moves when the exam resumes.
    if (this.isPaused() && Number.isFinite(this.session.pausedRemainingMs)) return this.session.pausedRemainingMs;
    return Math.max(0, this.session.deadlineMs - this.clock.now());
  }

  /** True while a proctor has paused the session (or its exam): the clock stands still, answers are still saved. */
  isPaused() {
    return this.session.status === 'PAUSED';
  }

  /**
   * Why editing is locked, or null when the candidate may edit:
   * 'other-tab' | 'taken-over' | 'submitted' | 'submitting' | 'submit-failed' | 'closed' | 'deadline'
   */
  lockReason() {
    if (this._readOnly) return 'other-tab';
    if (this.session.takenOver) return 'taken-over';
    const state = this.state;
    if (state === 'submitted') return 'submitted';
    if (state === 'submitting') return 'submitting';
    if (state === 'failed-final') return 'submit-failed';
    if (this.session.closed) return 'closed';
    if (!this.isPaused() && this.session.deadlineMs != null && this.clock.now() >= this.session.deadlineMs) return 'deadline';
    return null;
  }

  isEditable() {
    return this.lockReason() === null;
  }

  /** The current status (same object the 'status' event carries). */
  get status() {
    return this._computeStatus();
  }

  /** The live channel: 'connecting' | 'open' | 'closed' | 'fallback' | 'off' (see live.js). */
  get liveState() {
    return this._live?.state ?? 'off';
  }

  /** Writer-lock mechanism protecting this tab: 'web-locks' | 'broadcast-channel' | 'none'. */
  get lockMechanism() {
    return this._lock?.mechanism ?? 'none';
  }

  // ---------------------------------------------------------------- events

  /**
   * Events: 'status' (StatusEvent), 'lock' ({reason}), 'answers' ({questionIds} changed by a
   * merge), 'submitted' (paper), 'stale' ([{questionId, heldVersion}]), 'rejected'
   * ({questionId, error}), 'command' (proctor command, once per id whether it came by socket or
   * heartbeat), 'heartbeat' (body), 'live' ({state, ...}: the live channel), 'flags'
   * ({questionIds}: the questions flagged for review, after setFlag or a merge), 'warning' (error).
   */
  on(type, fn) {
    if (!this._listeners.has(type)) this._listeners.set(type, new Set());
    this._listeners.get(type).add(fn);
    return () => this._listeners.get(type)?.delete(fn);
  }

  _emit(type, detail) {
    for (const fn of [...(this._listeners.get(type) || [])]) {
      try {
        fn(detail);
      } catch (err) {
        if (type !== 'warning') this._emit('warning', err);
      }
    }
  }

  // ---------------------------------------------------------------- writing

  /**
   * Record an answer (null clears it). Resolves once it is in IndexedDB; the server gets
   * it with the next autosave. Rejects with EDITING_LOCKED / UNKNOWN_QUESTION / INVALID_ANSWER.
   */
  async setAnswer(questionId, value) {
    const question = this.questions.find((q) => q.id === questionId);
    if (!question) throw new ApiError({ code: ClientCodes.UNKNOWN_QUESTION, detail: `no question ${questionId}` });
    const reason = this.lockReason();
    if (reason) throw new ApiError({ code: ClientCodes.EDITING_LOCKED, detail: reason });
    const normalised = value === undefined ? null : value;
    const invalid = invalidReason(question, normalised, this._opts.maxValueBytes);
    if (invalid) throw new ApiError({ code: ClientCodes.INVALID_ANSWER, detail: `${questionId}: ${invalid}` });
    const current = this._answers.get(questionId);
    if (current && sameValue(current.value, normalised)) return { version: current.version };
    if (!current && normalised === null) return { version: 0 };
    const record = await this._store.recordChange(this.sessionId, questionId, normalised);
    this._answers.set(questionId, record);
    this.session.localVersion = record.version;
    this._scheduleSave();
    this._emitStatus();
    return { version: record.version };
  }

  // ---------------------------------------------------------------- lifecycle

  async _open() {
    this._answers = await this._store.getAnswers(this.sessionId);
    this._lock = new WriterLock(`exam-session:${this.sessionId}`, {
      locks: this._env.locks,
      BroadcastChannel: this._env.BroadcastChannel,
      timers: this._env.timers,
      random: this._env.random,
      now: this._env.now,
    });
    this._lock.onLost(() => this._becomeReadOnly());
    const held = await this._lock.acquire();
    if (!held) {
      this._readOnly = true;
      this._scheduleDeadline();
      this._emit('lock', { reason: 'other-tab' });
      this._emitStatus();
      return;
    }
    this._startRunning();
    this._scheduleDeadline();
  }

  /** This tab takes over writing from another tab of the same browser. */
  async takeOverFromOtherTab() {
    if (!this._readOnly) return;
    await this._lock.acquire({ steal: true });
    this.session = (await this._store.getSession(this.sessionId)) || this.session;
    this._lastCommandId = Math.max(this._lastCommandId, this.session.lastCommandId || 0); // the other tab's
    this._answers = await this._store.getAnswers(this.sessionId);
    this._readOnly = false;
    this._emit('lock', { reason: this.lockReason() });
    this._emit('answers', { questionIds: [...this._answers.keys()] });
    this._startRunning();
  }

  _becomeReadOnly() {
    this._readOnly = true;
    this._stopRunning();
    this._emit('lock', { reason: 'other-tab' });
    this._emitStatus();
  }

  _startRunning() {
    if (this._running) return;
    this._running = true;
    const win = this._env.window;
    if (win?.addEventListener) {
      this._onOnline = () => {
        this._onlineHint = true;
        this._emitStatus();
        this._http.wakeUp();
        this._live?.wakeUp();
        if (this.pendingCount() > 0) this._requestSync();
        this._flushEventsSoon(0);
      };
      this._onOffline = () => {
        this._offline = true;
        this._onlineHint = false;
        this._emitStatus();
      };
      win.addEventListener('online', this._onOnline);
      win.addEventListener('offline', this._onOffline);
      if (win.navigator && win.navigator.onLine === false) this._offline = true;
    }
    if (this.state === 'submitting') {
      this._submitRequested = true;
      this._submitPromise = this._runSubmit();
      this._submitPromise.catch(() => {});
    } else if (this.state === 'editing' && !this.session.takenOver) {
      this._enqueue(() => this._reconcile({ backlog: true })).catch(() => {});
    }
    this._startHeartbeat();
    this._startLive();
    this._flushEventsSoon(0);
    this._emitStatus();
  }

  _stopRunning() {
    this._running = false;
    this._stopLive();
    this._timers.cancelAll();
    const win = this._env.window;
    if (win?.removeEventListener && this._onOnline) {
      win.removeEventListener('online', this._onOnline);
      win.removeEventListener('offline', this._onOffline);
    }
  }

  /**
   * Remove everything this browser holds of this session — token, answers, unsent events, the receipt — and close.
   * For a shared PC once the candidate is done; before the paper is confirmed, answers not yet saved are lost, so a
   * page asks first. Confirmed papers already leave only their receipt (the paper id) behind.
   */
  async forget() {
    await this.close();
    const store = await openStore(this._env.indexedDB, this._opts.dbName);
    try {
      await store.forgetSession(this.sessionId, null);
    } finally {
      store.close();
    }
    this._answers = new Map();
  }

  /**
   * Once the paper is confirmed (the submit's answer, or the server saying SUBMITTED), the browser's storage keeps a
   * receipt of this session and nothing else: no token to resume it with, no answers. This tab's memory still shows
   * them until it closes.
   */
  async _keepOnlyTheReceipt() {
    const s = this.session;
    if (s.forgotten) return;
    const receipt = {
      sessionId: s.sessionId,
      examId: s.examId,
      candidateId: s.candidateId,
      deviceEpoch: s.deviceEpoch,
      status: 'SUBMITTED',
      paperId: s.paperId ?? s.submit?.paper?.paperId ?? null,
      paper: { questions: [] },
      submit: { state: 'submitted', paper: this.paper, submittedAt: s.submit?.submittedAt ?? this.clock.now(), replayed: s.submit?.replayed },
      clockOffsetMs: s.clockOffsetMs,
      forgotten: true,
    };
    try {
      await this._store.forgetSession(s.sessionId, receipt);
      this.session = { ...s, token: null, tokenExpiresMs: null, forgotten: true };
    } catch (err) {
      this._emit('warning', err); // the paper is safe either way; the data stays until forget()
    }
  }

  /** Stop timers and requests, release the writer lock. Data stays in IndexedDB. */
  async close() {
    this._closed = true;
    this._stopRunning();
    this._stopProctoring?.();
    this._timers.cancelAll();
    this._abort.abort();
    this._lock?.release();
    await this._queue.catch(() => {});
    this._store.close();
  }

  _timer(name, ms, fn) {
    this._timers.set(name, ms, fn);
  }

  _cancelTimer(name) {
    this._timers.cancel(name);
  }

  // ---------------------------------------------------------------- status

  _computeStatus() {
    const pending = this.pendingCount();
    const base = { pending, offline: this._offline, lock: this.lockReason() };
    let state;
    let error = null;
    const submit = this.session.submit;
    if (this.state === 'submitted') state = 'submitted';
    else if (submit?.state === 'failed-final') {
      state = 'error';
      error = submit.error;
    } else if (this._readOnly) {
      state = 'error';
      error = { code: 'OPEN_IN_ANOTHER_TAB', detail: 'this exam is open in another tab of this browser' };
    } else if (this._finalError) {
      state = 'error';
      error = this._finalError.toJSON ? this._finalError.toJSON() : this._finalError;
    } else if (this.state === 'submitting') state = this._offline && !this._onlineHint ? 'offline-saved-locally' : 'submitting';
    else if (this._offline && !this._onlineHint && (pending > 0 || this._inFlight)) state = 'offline-saved-locally';
    else if (this._inFlight === 'syncing' || (pending > 0 && this._offline)) state = 'syncing';
    else if (this._inFlight || pending > 0) state = 'saving';
    else state = 'saved';
    const message = state === 'offline-saved-locally' && this.state === 'submitting'
      ? 'Network is poor — your answers are saved on this device and will be submitted automatically.'
      : STATUS_MESSAGES[state];
    return { state, message, error, ...base };
  }

  _emitStatus() {
    const status = this._computeStatus();
    const key = JSON.stringify(status);
    if (key === this._lastStatusKey) return;
    this._lastStatusKey = key;
    this._emit('status', status);
  }
}

// ExamClient's behaviour by concern, a module each; the state they share is the instance's
// (the constructor lists it). Installed as the class's own methods are: not enumerable.
for (const methods of [autosaveMethods, reconcileMethods, submitMethods, commandMethods, eventMethods, reviewMethods]) {
  for (const [name, descriptor] of Object.entries(Object.getOwnPropertyDescriptors(methods))) {
    Object.defineProperty(ExamClient.prototype, name, { ...descriptor, enumerable: false });
  }
}

