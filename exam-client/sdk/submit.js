/**
 * ExamClient's submit: editing → submitting → submitted | failed-final. The Idempotency-Key and
 * the exact body are in IndexedDB before the first attempt, so a reload resends them byte for
 * byte; at the server's deadline the client confirms the time, then submits what it holds.
 */
import { ApiError, ClientCodes } from './errors.js';
import { isRetryable } from './retry.js';
import { isReservedEntry } from './review.js';

export const submitMethods = {
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
        if (isReservedEntry(q)) continue; // the review flags stay in the draft, never in the paper
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
  },

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
      await this._keepOnlyTheReceipt();
      this._emit('lock', { reason: 'submitted' });
      this._emit('submitted', paper);
      this._emitStatus();
      return paper;
    });
  },

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
  },

  async _confirmDeadlineThenSubmit() {
    try {
      const res = await this._http.send('session', 'GET', `/api/v1/sessions/${encodeURIComponent(this.sessionId)}`, { token: this.session.token });
      await this._applySessionInfo(res.body || {});
    } catch {
      /* offline: the deadline we know stands */
    }
    if (this.state === 'editing' && this.lockReason() === 'deadline') this.submit().catch(() => {});
  },
};
