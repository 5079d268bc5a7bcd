/**
 * ExamClient's server time and commands: the live channel (WebSocket) while it can be held, the
 * HTTP heartbeat otherwise; each command (warn, extend, pause, resume, takeover, force-submit)
 * handled once by its id, whichever way it came.
 */
import { ApiError, ClientCodes } from './errors.js';
import { resolveBaseUrls } from './http.js';
import { isRetryable } from './retry.js';
import { LiveChannel, LIVE_CLOSE, DEFAULT_LIVE, liveUrl } from './live.js';

export const commandMethods = {
  _startHeartbeat() {
    if (!this._opts.heartbeatMs || this.state === 'submitted' || this.session.takenOver) return;
    this._timer('heartbeat', this._heartbeatEvery(), async () => {
      await this.heartbeat().catch(() => {});
      if (this._running && !this._closed) this._startHeartbeat();
    });
  },

  /**
   * While the socket is open, time and commands come over it: the heartbeat only has to renew
   * the token, so it beats slower — but within half of what is left of the token, since the
   * server renews it only once less than half of its lifetime is left (whatever lifetime).
   */
  _heartbeatEvery() {
    if (this.liveState !== 'open') return this._opts.heartbeatMs;
    const left = this.session.tokenExpiresMs == null ? Infinity : this.session.tokenExpiresMs - this.clock.now();
    return Math.max(this._opts.heartbeatMs, Math.min(this._liveOptions().heartbeatMs, left / 2));
  },

  /** After a takeover or a submission there is nothing left to hear: heartbeat and socket end. */
  _stopHeartbeat() {
    this._cancelTimer('heartbeat');
    this._stopLive();
  },

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
  },

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
  },

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
  },

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
  },

  _takenOver() {
    return this._onFinalError(new ApiError({ status: 409, code: 'SESSION_TAKEN_OVER', detail: 'another device has taken this session over' }));
  },

  _liveOptions() {
    const live = this._opts.live;
    return { ...DEFAULT_LIVE, ...(live && typeof live === 'object' ? live : {}) };
  },

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
  },

  _stopLive() {
    const live = this._live;
    this._live = null;
    live?.stop();
  },

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
  },

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
  },

  /** The server closed the socket for good: the same paths as the HTTP answers. */
  async _onLiveFinal(code) {
    this._live = null;
    if (code === LIVE_CLOSE.TAKEN_OVER) await this._takenOver();
    else if (code === LIVE_CLOSE.UNAUTHORIZED) await this._onFinalError(new ApiError({ status: 401, code: 'UNAUTHORIZED', detail: 'the live channel refused the token' }));
    else this._emit('warning', new ApiError({ status: 403, code: 'FORBIDDEN', detail: 'the live channel refused this session; the heartbeat goes on' }));
  },
};
