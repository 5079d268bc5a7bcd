/**
 * ExamClient's reconcile: on open, after a generation change and after stale answers, the
 * server's draft is fetched and merged per question by stamp, what the server lacks is pushed,
 * and the session's record follows the server's (status, deadline, paper).
 */
import { ApiError, ClientCodes } from './errors.js';
import { isRetryable } from './retry.js';
import { parseTime } from './time.js';
import { mergeDraft, withEpochs } from './merge.js';
import { isDirty, isRejectedAsIs, deadlineFrom } from './records.js';
import { REVIEW_FLAGS_ID } from './review.js';

export const reconcileMethods = {
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
      if (changed.adopted.includes(REVIEW_FLAGS_ID)) this._emit('flags', { questionIds: this.reviewFlags() });
    } catch (err) {
      if (!isRetryable(err) && err.code !== ClientCodes.ABORTED) await this._onFinalError(err);
      return;
    } finally {
      this._inFlight = null;
      this._emitStatus();
    }
    await this._syncAll({ backlog: backlog || regenerated });
    this._emitStatus();
  },

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
      await this._keepOnlyTheReceipt();
      this._emit('lock', { reason: 'submitted' });
      this._emit('submitted', this.paper);
    }
    this._emitStatus();
  },

  async _updateSession(mutate) {
    this.session = await this._store.updateSession(this.sessionId, (s) => {
      mutate(s);
      return s;
    });
    return this.session;
  },

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
  },
};

function reqAll(request) {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}
