/**
 * The live channel (docs/api.md §3.7): one WebSocket per session to
 * /api/v1/sessions/{id}/live, over which the server pushes the time and proctor commands.
 * This module only keeps the socket alive; ExamClient decides what a message means.
 *
 *  - the token goes as the second subprotocol: browsers cannot set headers on a WebSocket;
 *  - application-level ping: TIME every pingMs. A socket that brings no message for
 *    deadAfterMs is dead (a NAT or proxy dropped it without a close), and is replaced;
 *  - reconnect with capped exponential backoff and full jitter (a whole exam room whose
 *    Wi-Fi comes back must not reconnect in the same millisecond);
 *  - after fallbackAfter attempts in a row that never brought a message (sockets blocked,
 *    e.g. by a corporate proxy) the state is 'fallback': the client polls over HTTP at its
 *    normal rate, and a socket is tried again every fallbackRetryMs or so;
 *  - the server's close codes 4401, 4403 and 4409 are final: no reconnect, onFinal is told.
 *
 * States: 'connecting' | 'open' (the server has spoken on this socket) | 'closed' (waiting
 * to reconnect) | 'fallback' | 'off' (stopped, or closed for good).
 */
import { retryDelayMs } from './retry.js';
import { NamedTimers } from './timers.js';

export const LIVE_SUBPROTOCOL = 'exam-live';
export const LIVE_CLOSE = Object.freeze({ UNAUTHORIZED: 4401, FORBIDDEN: 4403, TAKEN_OVER: 4409 });
// Our own code for a socket we gave up on (4000–4999 are free for applications).
const DEAD = 4000;

export const DEFAULT_LIVE = Object.freeze({
  // Under the server's 30 s online window, so the proctor sees the candidate online.
  pingMs: 20_000,
  // Two pings without an answer (plus a slow network's round trip).
  deadAfterMs: 45_000,
  baseMs: 1_000,
  capMs: 30_000,
  fallbackAfter: 4,
  fallbackRetryMs: 300_000,
  // The HTTP heartbeat while the socket is open; ExamClient also keeps it within half of what
  // is left of the token, which the server renews once less than half of its lifetime is left.
  heartbeatMs: 300_000,
});

/** ws(s)://…/api/v1/sessions/{id}/live from the session service's base URL ('' = this page's origin). */
export function liveUrl(sessionBase, sessionId, pageHref) {
  const url = new URL(`${sessionBase}/api/v1/sessions/${encodeURIComponent(sessionId)}/live`, pageHref || 'http://localhost/');
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.href;
}

export class LiveChannel {
  /**
   * @param {{url: () => string, token: () => string, WebSocket: any, timers: {setTimeout: Function, clearTimeout: Function},
   *          random: () => number, now: () => number, options?: Partial<typeof DEFAULT_LIVE>,
   *          onMessage: (message: any, pingSentAt: number|null) => void, onState: (state: string, detail: object) => void,
   *          onFinal: (code: number) => void}} deps
   */
  constructor(deps) {
    this._deps = deps;
    this.options = { ...DEFAULT_LIVE, ...(deps.options || {}) };
    this._state = 'off';
    this._ws = null;
    this._timers = new NamedTimers(deps.timers);
    this._attempt = 0; // reconnects since the last socket that lasted (backoff exponent)
    this._failures = 0; // attempts in a row that never brought a message
    this._spoken = false; // the current socket has brought a message
    this._openedAt = 0;
    this._pingSentAt = null;
  }

  get state() {
    return this._state;
  }

  start() {
    if (this._state !== 'off') return;
    if (typeof this._deps.WebSocket !== 'function') {
      this._setState('fallback', { reason: 'unsupported' }); // no WebSocket here: HTTP only
      return;
    }
    this._connect();
  }

  /** Close for good (the client closed, submitted, was taken over). */
  stop() {
    this._clearTimers();
    const ws = this._ws;
    this._ws = null;
    if (ws) this._detach(ws, 1000);
    this._setState('off', {});
  }

  /** The browser says it is online again: do not sit out the rest of a backoff. */
  wakeUp() {
    if (this._state === 'closed' && this._timers.has('reconnect')) {
      this._cancel('reconnect');
      this._connect();
    }
  }

  send(message) {
    if (this._ws && this._ws.readyState === 1) this._ws.send(JSON.stringify(message));
  }

  _connect() {
    this._clearTimers();
    if (this._state !== 'fallback') this._setState('connecting', {});
    this._spoken = false;
    let ws;
    try {
      ws = new this._deps.WebSocket(this._deps.url(), [LIVE_SUBPROTOCOL, this._deps.token()]);
    } catch {
      this._closed(null, { code: 1006 }); // e.g. a CSP refusal throws synchronously
      return;
    }
    this._ws = ws;
    ws.onmessage = (event) => this._message(ws, event);
    ws.onclose = (event) => this._closed(ws, event);
    ws.onerror = () => {}; // a close event follows
    this._armDeadline(ws); // also bounds a handshake that hangs
  }

  _message(ws, event) {
    if (ws !== this._ws) return;
    let message;
    try {
      message = JSON.parse(typeof event.data === 'string' ? event.data : String(event.data));
    } catch {
      return;
    }
    this._armDeadline(ws);
    const pingSentAt = message?.type === 'TIME' ? this._pingSentAt : null;
    if (message?.type === 'TIME') this._pingSentAt = null;
    if (!this._spoken) {
      // The server has accepted the token and speaks: this socket works.
      this._spoken = true;
      this._openedAt = this._deps.now();
      this._failures = 0;
      this._setState('open', {});
      this._schedulePing(ws);
    }
    this._deps.onMessage(message, pingSentAt);
  }

  _schedulePing(ws) {
    this._timer('ping', this.options.pingMs, () => {
      if (ws !== this._ws) return;
      if (this._pingSentAt == null) this._pingSentAt = this._deps.now();
      this.send({ type: 'TIME' });
      this._schedulePing(ws);
    });
  }

  _armDeadline(ws) {
    this._timer('dead', this.options.deadAfterMs, () => {
      // No close event will come in time from a dead TCP connection: give up on it ourselves.
      if (ws !== this._ws) return;
      this._detach(ws, DEAD);
      this._closed(ws, { code: DEAD, reason: 'no message', dead: true });
    });
  }

  _detach(ws, code) {
    ws.onmessage = ws.onclose = ws.onerror = null;
    try {
      ws.close(code);
    } catch {
      /* already closing */
    }
  }

  _closed(ws, event) {
    if (ws !== null && ws !== this._ws) return;
    this._ws = null;
    this._pingSentAt = null;
    this._clearTimers();
    const code = event?.code ?? 1006;
    if (code === LIVE_CLOSE.UNAUTHORIZED || code === LIVE_CLOSE.FORBIDDEN || code === LIVE_CLOSE.TAKEN_OVER) {
      this._setState('off', { code });
      this._deps.onFinal(code);
      return;
    }
    if (!this._spoken) this._failures++;
    // Only a socket that lasted resets the backoff: one closed right after it opened (a
    // restarting replica, a proxy that cuts sockets) must not make a reconnect loop.
    else if (this._deps.now() - this._openedAt >= this.options.pingMs) this._attempt = 0;
    if (this._failures >= this.options.fallbackAfter) {
      // Half to all of fallbackRetryMs, so that a room behind one proxy does not retry together.
      const wait = Math.round(this.options.fallbackRetryMs * (0.5 + this._deps.random() / 2));
      this._setState('fallback', { code, failures: this._failures, retryInMs: wait });
      this._timer('reconnect', wait, () => this._connect());
      return;
    }
    const wait = retryDelayMs(this._attempt++, null, this.options, this._deps.random);
    this._setState('closed', { code, dead: !!event?.dead, retryInMs: wait });
    this._timer('reconnect', wait, () => this._connect());
  }

  _setState(state, detail) {
    if (state === this._state) return;
    this._state = state;
    this._deps.onState(state, detail);
  }

  _timer(name, ms, fn) {
    this._timers.set(name, ms, fn);
  }

  _cancel(name) {
    this._timers.cancel(name);
  }

  _clearTimers() {
    this._timers.cancelAll();
  }
}
