/**
 * The server's clock as seen from this device. Every response that carries a time updates
 * the offset: a JSON `serverTime` (ms precision) is preferred; the `Date` header (1 s
 * precision) is used only until a precise sample has been seen. The sample is taken at the
 * midpoint of the request, which halves the error a slow network adds.
 */
export class ServerClock {
  /** @param {() => number} now local epoch ms */
  constructor(now = () => Date.now(), offsetMs = 0) {
    this._now = now;
    this.offsetMs = offsetMs;
    this._precise = false;
    this._listeners = new Set();
  }

  /** Current server time in epoch ms. */
  now() {
    return this._now() + this.offsetMs;
  }

  /** Local clock (for measuring round trips). */
  localNow() {
    return this._now();
  }

  /**
   * @param {{serverTime?: unknown} | null | undefined} body parsed JSON (may be null)
   * @param {string|null} dateHeader
   * @param {number} sentAt local ms when the request was sent
   * @param {number} receivedAt local ms when the response arrived
   */
  observe(body, dateHeader, sentAt, receivedAt) {
    const midpoint = (sentAt + receivedAt) / 2;
    const precise = body && typeof body === 'object' ? parseTime(body.serverTime) : null;
    if (precise != null) {
      this._set(Math.round(precise - midpoint), true);
      return;
    }
    if (this._precise || !dateHeader) return;
    const coarse = Date.parse(dateHeader);
    // The Date header truncates to the second: its true value is 0..999 ms later.
    if (!Number.isNaN(coarse)) this._set(Math.round(coarse + 500 - midpoint), false);
  }

  /** @param {(offsetMs: number) => void} fn */
  onChange(fn) {
    this._listeners.add(fn);
    return () => this._listeners.delete(fn);
  }

  _set(offset, precise) {
    this._precise = this._precise || precise;
    if (offset === this.offsetMs) return;
    this.offsetMs = offset;
    for (const fn of this._listeners) fn(offset);
  }
}

/** ISO-8601 string or epoch ms → epoch ms, else null. */
export function parseTime(value) {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && value !== '') {
    const ms = Date.parse(value);
    return Number.isNaN(ms) ? null : ms;
  }
  return null;
}
