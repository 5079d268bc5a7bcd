/**
 * ExamClient's proctoring events: recorded locally, sent in batches, kept until the server
 * has them.
 */
import { ClientCodes } from './errors.js';
import { isRetryable } from './retry.js';
import { watchProctoring } from './proctor.js';

export const eventMethods = {
  /**
   * Record a proctoring event (FOCUS_LOST, TAB_HIDDEN, FULLSCREEN_EXIT, PASTE, …). It is kept
   * in IndexedDB with a client eventId until the server accepted it (duplicates ignored there).
   * `detail`: optional text (≤ 500 characters). `fields.length`: a PASTE's pasted characters
   * (an integer ≥ 0; only with PASTE, as the server requires).
   */
  async recordEvent(type, detail, fields = {}) {
    const event = { sessionId: this.sessionId, eventId: this._env.uuid(), type, at: new Date(this.clock.now()).toISOString() };
    if (detail !== undefined) event.detail = String(detail).slice(0, 500);
    if (type === 'PASTE' && Number.isInteger(fields?.length) && fields.length >= 0) event.length = fields.length;
    await this._store.addEvent(event);
    this._flushEventsSoon(this._opts.eventsFlushMs);
    return event.eventId;
  },

  /** Listen for visibility, focus and fullscreen changes (and paste). Returns a stop function. */
  startProctoring(target = {}) {
    this._stopProctoring?.();
    this._stopProctoring = watchProctoring(
      { document: target.document ?? globalThis.document, window: target.window ?? this._env.window },
      (type, fields) => this.recordEvent(type, undefined, fields).catch((err) => this._emit('warning', err)),
    );
    return this._stopProctoring;
  },

  _flushEventsSoon(ms) {
    if (!this._running || this._readOnly) return;
    if (this._timers.has('events') && ms > 0) return;
    this._timer('events', ms, () => this.flushEvents().catch(() => {}));
  },

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
      const events = pending.map(({ eventId, type, at, detail, length }) => ({
        eventId,
        type,
        at,
        ...(detail === undefined ? {} : { detail }),
        ...(length === undefined ? {} : { length }),
      }));
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
  },
};
