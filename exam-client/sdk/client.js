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
 */
import { ApiError, ClientCodes } from './errors.js';
import { Http, resolveBaseUrls } from './http.js';
import { isRetryable, DEFAULT_RETRY } from './retry.js';
import { ServerClock, parseTime } from './time.js';
import { NamedTimers } from './timers.js';
import { openStore } from './store.js';
import { mergeDraft, sameValue, withEpochs } from './merge.js';
import { invalidReason, utf8Length, DEFAULT_MAX_VALUE_BYTES } from './validate.js';
import { WriterLock } from './writer-lock.js';
import { watchProctoring } from './proctor.js';
import { LiveChannel, LIVE_CLOSE, DEFAULT_LIVE, liveUrl } from './live.js';

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

function deadlineFrom(body) {
  const deadline = parseTime(body?.deadline);
  if (deadline != null) return deadline;
  const serverTime = parseTime(body?.serverTime);
  if (serverTime != null && Number.isFinite(body?.remainingMs)) return serverTime + body.remainingMs;
  return null;
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
      { body: { examId, candidateId, accessCode } },
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

  /** Forget which session this browser works on (answers stay until the database is cleared). */
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

  /** The current answer of every question that has one: {questionId: value}. */
  answers() {
    const out = {};
    for (const [q, r] of this._answers) if (r.value !== null && r.value !== undefined) out[q] = r.value;
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
   * heartbeat), 'heartbeat' (body), 'live' ({state, ...}: the live channel), 'warning' (error).
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

  /** Send pending answers now (skips the debounce). Resolves when the queue has run it. */
  flush() {
    return this._requestSync();
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

  /** Serial queue: draft reads/writes and submit, one at a time. */
  _enqueue(job) {
    const run = this._queue.then(() => (this._closed ? undefined : job()));
    this._queue = run.catch(() => {});
    return run;
  }

  _canSync() {
    return this._running && !this._closed && !this._readOnly && !this._authRequired && !this.session.takenOver
      && !this.session.closed && !this._submitRequested && this.state === 'editing';
  }

  // ---------------------------------------------------------------- autosave

  _scheduleSave() {
    if (!this._running) return;
    const now = this._env.now();
    if (this._firstDirtyAt == null) this._firstDirtyAt = now;
    const waited = now - this._firstDirtyAt;
    const delay = Math.max(0, Math.min(this._opts.debounceMs, this._opts.maxWaitMs - waited));
    this._timer('save', delay, () => this._requestSync());
  }

  _requestSync() {
    this._cancelTimer('save');
    this._firstDirtyAt = null;
    if (this._syncQueued) return this._syncQueued;
    const queued = this._enqueue(async () => {
      this._syncQueued = null;
      await this._syncAll();
    });
    this._syncQueued = queued;
    return queued.catch(() => {});
  }

  /** Push every answer that is dirty right now, in request-size chunks. */
  async _syncAll({ backlog = false } = {}) {
    const ids = [...this._answers.values()].filter((r) => isDirty(r) && !isRejectedAsIs(r)).map((r) => r.questionId);
    for (const chunk of this._chunks(ids)) {
      if (!this._canSync()) return;
      const ok = await this._pushChunk(chunk, backlog || this._offline);
      if (!ok) return;
    }
  }

  _chunks(ids) {
    const chunks = [];
    let current = [];
    let size = 64;
    for (const q of ids) {
      const r = this._answers.get(q);
      const bytes = utf8Length(JSON.stringify({ questionId: q, value: r.value })) + 1;
      if (current.length && size + bytes > this._opts.maxRequestBytes) {
        chunks.push(current);
        current = [];
        size = 64;
      }
      current.push(q);
      size += bytes;
    }
    if (current.length) chunks.push(current);
    return chunks;
  }

  /**
   * One PATCH (with retries). Each attempt sends the newest value of the chunk's questions.
   * @returns {Promise<boolean>} false when syncing must stop (final error or gave up)
   */
  async _pushChunk(questionIds, backlog) {
    let sent = null; // {version, versions: Map<q, version>}
    const build = async () => {
      const versions = new Map();
      const changes = [];
      let version = 0;
      for (const q of questionIds) {
        const r = this._answers.get(q);
        if (!r || !isDirty(r)) continue;
        versions.set(q, r.version);
        changes.push({ questionId: q, value: r.value });
        version = Math.max(version, r.version);
      }
      sent = { version, versions };
      if (changes.length) {
        const written = await this._store.updateAnswers(this.sessionId, [...versions.keys()], (rec) =>
          rec && rec.sentVersion !== rec.version ? { ...rec, sentVersion: rec.version } : undefined,
        );
        for (const rec of written) this._answers.set(rec.questionId, rec);
      }
      return { token: this.session.token, body: { version, changes } };
    };
    const first = await build();
    if (first.body.changes.length === 0) return true;
    this._inFlight = backlog ? 'syncing' : 'saving';
    this._emitStatus();
    let res;
    let firstAttempt = true;
    try {
      res = await this._http.call(
        'answer',
        'PATCH',
        `/api/v1/answers/${encodeURIComponent(this.sessionId)}`,
        async () => (firstAttempt ? ((firstAttempt = false), first) : build()),
        this._retryHooks(() => this._canSync()),
      );
    } catch (err) {
      this._inFlight = null;
      if (isRetryable(err) || err.code === ClientCodes.ABORTED) {
        this._emitStatus();
        return false; // gave up for now (submit or close took over); answers stay dirty
      }
      const culprit = err.body?.questionId;
      if ((err.status === 400 || err.status === 413) && sent.versions.size > 1 && sent.versions.has(culprit)) {
        // The server named the answer it refused: set it aside, send the others at once.
        await this._markRejected({ versions: new Map([[culprit, sent.versions.get(culprit)]]) }, err);
        return this._pushChunk([...sent.versions.keys()].filter((q) => q !== culprit), backlog);
      }
      if ((err.status === 400 || err.status === 413) && sent.versions.size > 1) {
        // One bad answer must not hold back the others: send them one by one.
        for (const q of sent.versions.keys()) {
          if (!this._canSync()) return false;
          await this._pushChunk([q], backlog);
        }
        return true;
      }
      if (err.status === 400 || err.status === 413) {
        await this._markRejected(sent, err);
        return true;
      }
      await this._onFinalError(err);
      return false;
    }
    this._inFlight = null;
    this._wentOnline();
    await this._applyPatchResult(sent, res.body || {});
    return true;
  }

  _retryHooks(shouldContinue) {
    return {
      signal: this._abort.signal,
      shouldContinue,
      onRetry: (err) => {
        if (err.code === ClientCodes.NETWORK_ERROR || err.code === ClientCodes.TIMEOUT || err.status >= 500 || err.status === 429) {
          this._offline = true;
          this._onlineHint = false;
        }
        this._emitStatus();
      },
    };
  }

  _wentOnline() {
    this._offline = false;
    this._onlineHint = false;
    if (this._finalError && !this._authRequired && !this.session.takenOver && !this.session.closed) this._finalError = null;
  }

  async _applyPatchResult(sent, body) {
    const stale = new Map((Array.isArray(body.stale) ? body.stale : []).map((s) => [s.questionId, s.heldVersion]));
    const written = await this._store.updateAnswers(this.sessionId, [...sent.versions.keys()], (rec, q) => {
      if (!rec || rec.version !== sent.versions.get(q)) return undefined; // changed meanwhile: still dirty
      const next = { ...rec, ackedVersion: rec.version, sentVersion: rec.version };
      delete next.rejected;
      if (stale.has(q)) next.stale = { heldVersion: stale.get(q) };
      else delete next.stale;
      return next;
    });
    for (const rec of written) this._answers.set(rec.questionId, rec);
    const previousGeneration = this.session.generation;
    await this._updateSession((s) => {
      if (body.generation !== undefined) s.generation = body.generation;
      if (Number.isFinite(body.version)) s.serverVersion = body.version;
    });
    this._emitStatus();
    const regenerated = previousGeneration != null && body.generation !== undefined && body.generation !== previousGeneration;
    if (stale.size) this._emit('stale', [...stale].map(([questionId, heldVersion]) => ({ questionId, heldVersion })));
    if (regenerated || stale.size) {
      // The server holds newer values for stale questions (adopt them), or it restored the
      // draft and may have lost what it acknowledged (push again): both are a reconcile.
      this._enqueue(() => this._reconcile({ regenerated, backlog: regenerated })).catch(() => {});
    }
  }

  async _markRejected(sent, err) {
    const written = await this._store.updateAnswers(this.sessionId, [...sent.versions.keys()], (rec, q) => {
      if (!rec || rec.version !== sent.versions.get(q)) return undefined;
      return { ...rec, ackedVersion: rec.version, rejected: { version: rec.version, ...err.toJSON() } };
    });
    for (const rec of written) {
      this._answers.set(rec.questionId, rec);
      this._emit('rejected', { questionId: rec.questionId, error: err.toJSON() });
    }
    this._emitStatus();
  }

  // ---------------------------------------------------------------- reconcile

  /**
   * Fetch the session (deadline, status) and the server's draft, merge per question by
   * stamp, write the result locally, then push what the server lacks.
   */
  async _reconcile({ regenerated = false, backlog = false } = {}) {
    if (!this._canSync()) return;
    this._inFlight = 'syncing';
    this._emitStatus();
    const hooks = this._retryHooks(() => this._canSync());
    try {
      const ses = await this._http.call('session', 'GET', `/api/v1/sessions/${encodeURIComponent(this.sessionId)}`, { token: this.session.token }, hooks);
      await this._applySessionInfo(ses.body || {});
      if (!this._canSync()) return;
      const res = await this._http.call('answer', 'GET', `/api/v1/answers/${encodeURIComponent(this.sessionId)}`, { token: this.session.token }, hooks);
      this._wentOnline();
      const draft = res.body || {};
      const regen = regenerated || (this.session.generation != null && draft.generation !== undefined && draft.generation !== this.session.generation);
      const changed = await this._store.tx(['sessions', 'answers'], 'readwrite', async (s) => {
        // Same transaction as the merge: a change recorded meanwhile is either seen by the
        // merge or numbered above everything it adopts.
        const session = await reqAll(s.sessions.get(this.sessionId));
        if (Number.isFinite(draft.version) && draft.version > (session.localVersion || 0)) {
          session.localVersion = draft.version;
          s.sessions.put(session);
        }
        const rows = await reqAll(s.answers.index('bySession').getAll(this.sessionId));
        const local = new Map(rows.map((r) => [r.questionId, r]));
        const plan = mergeDraft(local, withEpochs(draft), { tokenEpoch: this.session.deviceEpoch, regenerated: regen });
        const out = [];
        const put = (rec) => {
          s.answers.put(rec);
          out.push(rec);
        };
        for (const a of plan.adopt) {
          put({
            sessionId: this.sessionId,
            questionId: a.questionId,
            value: a.value,
            epoch: a.epoch,
            version: a.version,
            ackedVersion: a.version,
            sentVersion: a.version,
            fromServer: true,
          });
        }
        for (const q of plan.push) {
          const r = local.get(q);
          if (!r || isRejectedAsIs(r)) continue;
          if (!isDirty(r)) put({ ...r, ackedVersion: 0 });
        }
        for (const { questionId, version } of plan.inSync) {
          const r = local.get(questionId);
          if (r.ackedVersion !== version || r.stale) {
            const next = { ...r, ackedVersion: version };
            delete next.stale;
            put(next);
          }
        }
        return { out, adopted: plan.adopt.map((a) => a.questionId) };
      });
      for (const rec of changed.out) this._answers.set(rec.questionId, rec);
      await this._updateSession((s) => {
        if (draft.generation !== undefined) s.generation = draft.generation;
        if (Number.isFinite(draft.version)) {
          s.serverVersion = draft.version;
          // Keep this device's counter ahead of anything the server has seen.
          s.localVersion = Math.max(s.localVersion || 0, draft.version);
        }
      });
      if (changed.adopted.length) this._emit('answers', { questionIds: changed.adopted });
    } catch (err) {
      if (!isRetryable(err) && err.code !== ClientCodes.ABORTED) await this._onFinalError(err);
      return;
    } finally {
      this._inFlight = null;
      this._emitStatus();
    }
    await this._syncAll({ backlog: backlog || regenerated });
    this._emitStatus();
  }

  async _applySessionInfo(body, { lastCommandId } = {}) {
    const deadline = deadlineFrom(body);
    const wasEditing = this.state === 'editing'; // read before the update below makes it 'submitted'
    const wasPaused = this.isPaused();
    await this._updateSession((s) => {
      if (lastCommandId !== undefined) s.lastCommandId = Math.max(s.lastCommandId || 0, lastCommandId);
      if (deadline != null) s.deadlineMs = deadline;
      if (body.status) s.status = body.status;
      if (body.status === 'PAUSED' && Number.isFinite(body.remainingMs)) s.pausedRemainingMs = body.remainingMs;
      if (body.status && body.status !== 'PAUSED') {
        delete s.pausedRemainingMs;
        delete s.pausedByExam;
      }
      if (body.paperId) s.paperId = body.paperId;
      if (typeof body.token === 'string' && body.token) {
        s.token = body.token;
        s.tokenExpiresMs = parseTime(body.tokenExpiresAt);
      }
      s.clockOffsetMs = this.clock.offsetMs;
    });
    this._scheduleDeadline();
    if (this.isPaused() !== wasPaused) this._emit('pause', { paused: this.isPaused(), remainingMs: this.remainingMs() });
    if (body.status === 'SUBMITTED' && wasEditing) {
      // Auto-submitted at deadline + grace, or by a proctor: the paper exists.
      this._stopLive();
      this._emit('lock', { reason: 'submitted' });
      this._emit('submitted', this.paper);
    }
    this._emitStatus();
  }

  async _updateSession(mutate) {
    this.session = await this._store.updateSession(this.sessionId, (s) => {
      mutate(s);
      return s;
    });
    return this.session;
  }

  async _onFinalError(err) {
    const code = err.code;
    if (err.status === 401) {
      this._authRequired = true;
      this._stopLive(); // its reconnects would be refused too, until the candidate signs in again
      this._finalError = new ApiError({ status: 401, code: ClientCodes.AUTH_REQUIRED, detail: 'sign in again to continue; your answers are kept on this device' });
    } else if (code === 'SESSION_TAKEN_OVER') {
      await this._updateSession((s) => {
        s.takenOver = true;
      });
      this._finalError = err;
      this._stopHeartbeat();
      this._emit('lock', { reason: 'taken-over' });
    } else if (code === 'SESSION_CLOSED') {
      await this._updateSession((s) => {
        s.closed = true;
      });
      this._finalError = err;
      this._emit('lock', { reason: 'closed' });
    } else {
      this._finalError = err;
    }
    this._emitStatus();
  }

  // ---------------------------------------------------------------- submit

  /**
   * Submit the final sheet: every answer with the version at which it was last changed.
   * Safe to call twice (same promise) and across reloads (same key, same bytes).
   * @returns {Promise<object>} the paper
   */
  submit() {
    if (this.state === 'submitted') return Promise.resolve(this.paper);
    if (this._submitPromise) return this._submitPromise;
    const reason = this.lockReason();
    if (reason === 'other-tab' || reason === 'taken-over') {
      return Promise.reject(new ApiError({ code: ClientCodes.EDITING_LOCKED, detail: reason }));
    }
    if (this.state === 'failed-final') return Promise.reject(new ApiError(this.session.submit.error || { code: 'SUBMIT_FAILED' }));
    this._submitRequested = true;
    this._cancelTimer('save');
    this._http.wakeUp(); // a waiting autosave retry gives way now
    this._submitPromise = (async () => {
      const rows = await this._store.getAnswers(this.sessionId);
      const answers = {};
      for (const [q, r] of [...rows].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
        answers[q] = { value: r.value ?? null, version: r.version };
      }
      const body = JSON.stringify({ sessionId: this.sessionId, answers });
      const key = this._env.uuid();
      await this._updateSession((s) => {
        if (!s.submit) s.submit = { state: 'submitting', idempotencyKey: key, body, startedAt: this.clock.now() };
      });
      this._emit('lock', { reason: 'submitting' });
      this._emitStatus();
      return this._runSubmit();
    })();
    this._submitPromise.catch(() => {});
    return this._submitPromise;
  }

  _runSubmit() {
    return this._enqueue(async () => {
      const { idempotencyKey, body } = this.session.submit;
      this._inFlight = 'submitting';
      this._emitStatus();
      let res;
      try {
        res = await this._http.call(
          'submission',
          'POST',
          '/api/v1/submissions',
          () => ({ token: this.session.token, rawBody: body, headers: { 'Idempotency-Key': idempotencyKey } }),
          this._retryHooks(() => !this._closed && !this._authRequired),
        );
      } catch (err) {
        this._inFlight = null;
        this._submitPromise = null;
        if (isRetryable(err) || err.code === ClientCodes.ABORTED) {
          this._emitStatus();
          throw err; // still 'submitting': a reload or the next open resends the same request
        }
        if (err.status === 401) {
          await this._onFinalError(err); // sign in again; the same key and body are resent then
          throw this._finalError;
        }
        await this._updateSession((s) => {
          s.submit = { ...s.submit, state: 'failed-final', error: err.toJSON() };
        });
        this._finalError = err;
        this._emit('lock', { reason: 'submit-failed' });
        this._emitStatus();
        throw err;
      }
      this._inFlight = null;
      this._wentOnline();
      const paper = res.body || {};
      await this._updateSession((s) => {
        s.submit = {
          ...s.submit,
          state: 'submitted',
          paper,
          replayed: res.headers?.get?.('idempotent-replayed') === 'true',
          submittedAt: this.clock.now(),
        };
        s.status = 'SUBMITTED';
        if (paper.paperId) s.paperId = paper.paperId;
      });
      this._stopHeartbeat();
      this._emit('lock', { reason: 'submitted' });
      this._emit('submitted', paper);
      this._emitStatus();
      return paper;
    });
  }

  // ---------------------------------------------------------------- time

  _scheduleDeadline() {
    if (this._closed || this.session.deadlineMs == null) return;
    if (this.isPaused()) {
      this._cancelTimer('deadline'); // no deadline while paused: resume brings the moved one
      return;
    }
    const remaining = this.session.deadlineMs - this.clock.now();
    if (remaining > 0) {
      this._deadlineFired = false;
      this._timer('deadline', Math.min(remaining, 60_000), () => this._scheduleDeadline());
      return;
    }
    if (this._deadlineFired) return;
    this._deadlineFired = true;
    this._emit('lock', { reason: this.lockReason() });
    this._emitStatus();
    if (this._opts.autoSubmitAtDeadline && this._running && this.state === 'editing' && !this._readOnly && !this.session.takenOver) {
      // Confirm the deadline first (an extension may not have reached us), then hand in
      // the sheet: it may hold answers the server draft has not seen yet.
      this._confirmDeadlineThenSubmit();
    }
  }

  async _confirmDeadlineThenSubmit() {
    try {
      const res = await this._http.send('session', 'GET', `/api/v1/sessions/${encodeURIComponent(this.sessionId)}`, { token: this.session.token });
      await this._applySessionInfo(res.body || {});
    } catch {
      /* offline: the deadline we know stands */
    }
    if (this.state === 'editing' && this.lockReason() === 'deadline') this.submit().catch(() => {});
  }

  // ---------------------------------------------------------------- heartbeat

  _startHeartbeat() {
    if (!this._opts.heartbeatMs || this.state === 'submitted' || this.session.takenOver) return;
    this._timer('heartbeat', this._heartbeatEvery(), async () => {
      await this.heartbeat().catch(() => {});
      if (this._running && !this._closed) this._startHeartbeat();
    });
  }

  /**
   * While the socket is open, time and commands come over it: the heartbeat only has to renew
   * the token, so it beats slower — but within half of what is left of the token, since the
   * server renews it only once less than half of its lifetime is left (whatever lifetime).
   */
  _heartbeatEvery() {
    if (this.liveState !== 'open') return this._opts.heartbeatMs;
    const left = this.session.tokenExpiresMs == null ? Infinity : this.session.tokenExpiresMs - this.clock.now();
    return Math.max(this._opts.heartbeatMs, Math.min(this._liveOptions().heartbeatMs, left / 2));
  }

  /** After a takeover or a submission there is nothing left to hear: heartbeat and socket end. */
  _stopHeartbeat() {
    this._cancelTimer('heartbeat');
    this._stopLive();
  }

  /** POST /heartbeat: server time, status, a renewed token, pending proctor commands. */
  async heartbeat() {
    if (this._readOnly || this._authRequired || this.session.takenOver) return null;
    try {
      const seen = this._lastCommandId;
      const res = await this._http.send('session', 'POST', `/api/v1/sessions/${encodeURIComponent(this.sessionId)}/heartbeat?lastCommandId=${seen}`, {
        token: this.session.token,
        signal: this._abort.signal,
      });
      const body = res.body || {};
      this._wentOnline();
      const commands = Array.isArray(body.commands) ? body.commands : [];
      // Claimed before any await: a copy arriving by socket meanwhile is then a duplicate.
      const fresh = commands.filter((c) => this._claimCommand(c));
      await this._applySessionInfo(body, { lastCommandId: this._lastCommandId });
      this._emit('heartbeat', body);
      for (const command of fresh) await this._handleCommand(command);
      if (this.pendingCount() > 0 && this._canSync()) this._requestSync();
      return body;
    } catch (err) {
      if (isRetryable(err)) {
        this._offline = true;
        this._emitStatus();
      } else if (err.code !== ClientCodes.ABORTED) {
        await this._onFinalError(err);
      }
      throw err;
    }
  }

  /**
   * Whether a command is new, marking it seen. Ids are per session and increase, so the
   * highest seen id is the whole memory (and what the heartbeat sends as lastCommandId).
   */
  _claimCommand(command) {
    const id = command?.id;
    if (!Number.isSafeInteger(id)) return true;
    if (id <= this._lastCommandId) return false;
    this._lastCommandId = id;
    return true;
  }

  async _handleCommand(command) {
    if (command?.type === 'TAKEN_OVER') {
      // The session's own sign-in also queues TAKEN_OVER (for the device before it): only a
      // higher epoch than ours concerns this device.
      if (Number.isInteger(command.deviceEpoch) && command.deviceEpoch > this.session.deviceEpoch) await this._takenOver();
    } else if (command?.type === 'EXTENDED' && command.deadline) {
      await this._applySessionInfo({ deadline: command.deadline });
    } else if (command?.type === 'PAUSED' || command?.type === 'RESUMED') {
      await this._pauseCommand(command);
    } else if ((command?.type === 'SUBMITTED' || command?.type === 'FORCE_SUBMITTED') && command.paperId) {
      await this._applySessionInfo({ status: 'SUBMITTED', paperId: command.paperId });
    }
    this._emit('command', command);
  }

  /**
   * PAUSED / RESUMED. One session's carry its remainingMs and deadline; a whole exam's are one
   * broadcast for every device (byExam, no id), so each device freezes its own time left and, on
   * resume, moves its deadline by the pause itself; the next TIME or heartbeat confirms both.
   * An exam's resume does not resume a session a proctor paused on its own.
   */
  async _pauseCommand(command) {
    if (this.state === 'submitted' || this.session.status === 'SUBMITTED') return;
    if (command.type === 'PAUSED') {
      if (this.isPaused()) return;
      const remainingMs = Number.isFinite(command.remainingMs) ? command.remainingMs : this.remainingMs();
      await this._updateSession((s) => {
        s.pausedByExam = command.byExam === true;
      });
      await this._applySessionInfo({ status: 'PAUSED', deadline: command.deadline, remainingMs });
      return;
    }
    if (!this.isPaused() || (command.byExam === true && this.session.pausedByExam !== true)) return;
    const frozen = this.session.pausedRemainingMs;
    const deadline = command.deadline ?? (Number.isFinite(frozen) ? new Date(this.serverNow() + frozen).toISOString() : undefined);
    await this._applySessionInfo({ status: 'IN_PROGRESS', deadline });
  }

  _takenOver() {
    return this._onFinalError(new ApiError({ status: 409, code: 'SESSION_TAKEN_OVER', detail: 'another device has taken this session over' }));
  }

  // ---------------------------------------------------------------- live channel

  _liveOptions() {
    const live = this._opts.live;
    return { ...DEFAULT_LIVE, ...(live && typeof live === 'object' ? live : {}) };
  }

  _startLive() {
    if (!this._opts.live || this._live || this.state !== 'editing' || this.session.takenOver || this._authRequired) return;
    this._live = new LiveChannel({
      url: () => liveUrl(resolveBaseUrls(this._opts).session, this.sessionId, this._env.window?.location?.href ?? globalThis.location?.href),
      token: () => this.session.token,
      WebSocket: this._env.WebSocket,
      timers: this._env.timers,
      random: this._env.random,
      now: () => this.clock.localNow(),
      options: this._liveOptions(),
      onMessage: (message, pingSentAt) => this._onLiveMessage(message, pingSentAt).catch((err) => this._emit('warning', err)),
      onState: (state, detail) => this._onLiveState(state, detail),
      onFinal: (code) => this._onLiveFinal(code).catch((err) => this._emit('warning', err)),
    });
    this._live.start();
  }

  _stopLive() {
    const live = this._live;
    this._live = null;
    live?.stop();
  }

  _onLiveState(state, detail) {
    const wasOpen = this._liveWasOpen;
    this._liveWasOpen = state === 'open';
    if (state === 'open') {
      // Catch up on whatever was sent while no socket listened (each command is claimed
      // once by id); the heartbeat then goes on at the slow rate.
      if (this._running && !this._closed) this.heartbeat().catch(() => {}).finally(() => this._running && !this._closed && this._startHeartbeat());
    } else if (wasOpen && this._running && !this._closed && this._timers.has('heartbeat')) {
      this._startHeartbeat(); // no socket: back to the normal rate from now
    }
    this._emit('live', { state, ...detail });
  }

  async _onLiveMessage(message, pingSentAt) {
    if (this._closed || !message || typeof message !== 'object') return;
    if (message.type === 'TIME') {
      // Only an answer to our ping has a round trip to take the midpoint of; a pushed TIME
      // would set the clock one network delay behind (HTTP responses keep sampling too).
      if (pingSentAt != null) this.clock.observe(message, null, pingSentAt, this.clock.localNow());
      if (Number.isInteger(message.deviceEpoch) && message.deviceEpoch > this.session.deviceEpoch) {
        await this._takenOver();
        return;
      }
      await this._applySessionInfo(message);
      return;
    }
    if (message.type === 'ERROR' || typeof message.type !== 'string') return;
    const id = message.id;
    if (Number.isSafeInteger(id) && id > this._lastCommandId + 1) {
      // Some command before this one never reached us: the heartbeat returns them all, in order.
      if (await this.heartbeat().then(() => true, () => false)) return;
      // It failed: this one now rather than later; what the missed ones changed (deadline,
      // status, device epoch) also comes with the next TIME.
    }
    if (!this._claimCommand(message)) return;
    await this._updateSession((s) => {
      s.lastCommandId = Math.max(s.lastCommandId || 0, this._lastCommandId);
    });
    await this._handleCommand(message);
  }

  /** The server closed the socket for good: the same paths as the HTTP answers. */
  async _onLiveFinal(code) {
    this._live = null;
    if (code === LIVE_CLOSE.TAKEN_OVER) await this._takenOver();
    else if (code === LIVE_CLOSE.UNAUTHORIZED) await this._onFinalError(new ApiError({ status: 401, code: 'UNAUTHORIZED', detail: 'the live channel refused the token' }));
    else this._emit('warning', new ApiError({ status: 403, code: 'FORBIDDEN', detail: 'the live channel refused this session; the heartbeat goes on' }));
  }

  // ---------------------------------------------------------------- proctoring

  /**
   * Record a proctoring event (FOCUS_LOST, TAB_HIDDEN, FULLSCREEN_EXIT, PASTE, …). It is kept
   * in IndexedDB with a client eventId until the server accepted it (duplicates ignored there).
   * `detail`: optional text (≤ 500 characters).
   */
  async recordEvent(type, detail) {
    const event = { sessionId: this.sessionId, eventId: this._env.uuid(), type, at: new Date(this.clock.now()).toISOString() };
    if (detail !== undefined) event.detail = String(detail).slice(0, 500);
    await this._store.addEvent(event);
    this._flushEventsSoon(this._opts.eventsFlushMs);
    return event.eventId;
  }

  /** Listen for visibility, focus and fullscreen changes (and paste). Returns a stop function. */
  startProctoring(target = {}) {
    this._stopProctoring?.();
    this._stopProctoring = watchProctoring(
      { document: target.document ?? globalThis.document, window: target.window ?? this._env.window },
      (type) => this.recordEvent(type).catch((err) => this._emit('warning', err)),
    );
    return this._stopProctoring;
  }

  _flushEventsSoon(ms) {
    if (!this._running || this._readOnly) return;
    if (this._timers.has('events') && ms > 0) return;
    this._timer('events', ms, () => this.flushEvents().catch(() => {}));
  }

  async flushEvents() {
    if (this._eventsFlushing || this._readOnly || this._authRequired) return;
    this._eventsFlushing = true;
    try {
      // oldest first: IndexedDB returns them by eventId (random), and the server's rules count
      // an event against those up to its own time, so a newer one sent first hides a flag
      const pending = (await this._store.getEvents(this.sessionId))
        .sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0))
        .slice(0, 100);
      if (!pending.length) return;
      const events = pending.map(({ eventId, type, at, detail }) => (detail === undefined ? { eventId, type, at } : { eventId, type, at, detail }));
      try {
        await this._http.call(
          'session',
          'POST',
          `/api/v1/sessions/${encodeURIComponent(this.sessionId)}/events`,
          { token: this.session.token, body: { events } },
          { signal: this._abort.signal, retry: { maxAttempts: 3 } },
        );
      } catch (err) {
        if (isRetryable(err) || err.code === ClientCodes.ABORTED) {
          this._timer('events', 30_000, () => this.flushEvents().catch(() => {}));
          return;
        }
        if (err.status === 401) return;
        this._emit('warning', err); // refused for good: do not resend forever
      }
      await this._store.deleteEvents(this.sessionId, pending.map((e) => e.eventId));
      if (pending.length === 100) this._flushEventsSoon(0);
    } finally {
      this._eventsFlushing = false;
    }
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

function isDirty(r) {
  return r.version > (r.ackedVersion || 0);
}

/** Rejected by the server (400/413) and unchanged since: sending it again cannot help. */
function isRejectedAsIs(r) {
  return !!r.rejected && r.rejected.version === r.version;
}

function reqAll(request) {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}
