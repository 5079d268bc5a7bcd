/**
 * ExamClient's autosave: dirty answers are sent as one delta after a debounce, in chunks under
 * the server's body limit, through the client's serial queue (at most one draft/submit request in
 * flight per session), retried while they can succeed; the server's answer marks them acked,
 * stale or rejected in IndexedDB.
 */
import { ClientCodes } from './errors.js';
import { isRetryable } from './retry.js';
import { utf8Length } from './validate.js';
import { isDirty, isRejectedAsIs } from './records.js';

export const autosaveMethods = {
  /** Send pending answers now (skips the debounce). Resolves when the queue has run it. */
  flush() {
    return this._requestSync();
  },

  /** Serial queue: draft reads/writes and submit, one at a time. */
  _enqueue(job) {
    const run = this._queue.then(() => (this._closed ? undefined : job()));
    this._queue = run.catch(() => {});
    return run;
  },

  _canSync() {
    return this._running && !this._closed && !this._readOnly && !this._authRequired && !this.session.takenOver
      && !this.session.closed && !this._submitRequested && this.state === 'editing';
  },

  _scheduleSave() {
    if (!this._running) return;
    const now = this._env.now();
    if (this._firstDirtyAt == null) this._firstDirtyAt = now;
    const waited = now - this._firstDirtyAt;
    const delay = Math.max(0, Math.min(this._opts.debounceMs, this._opts.maxWaitMs - waited));
    this._timer('save', delay, () => this._requestSync());
  },

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
  },

  /** Push every answer that is dirty right now, in request-size chunks. */
  async _syncAll({ backlog = false } = {}) {
    const ids = [...this._answers.values()].filter((r) => isDirty(r) && !isRejectedAsIs(r)).map((r) => r.questionId);
    for (const chunk of this._chunks(ids)) {
      if (!this._canSync()) return;
      const ok = await this._pushChunk(chunk, backlog || this._offline);
      if (!ok) return;
    }
  },

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
  },

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
  },

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
  },

  _wentOnline() {
    this._offline = false;
    this._onlineHint = false;
    if (this._finalError && !this._authRequired && !this.session.takenOver && !this.session.closed) this._finalError = null;
  },

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
  },

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
  },
};
