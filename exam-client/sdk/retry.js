/**
 * What may be retried and when. docs/api.md §3.3: clients retry only what can succeed later
 * (network errors, timeouts, 5xx, 409 REQUEST_IN_PROGRESS, 429) honouring Retry-After, with
 * capped exponential backoff and full jitter; every other 4xx is final.
 */
import { ClientCodes } from './errors.js';

export const DEFAULT_RETRY = Object.freeze({
  baseMs: 500,
  capMs: 30_000,
  // A hostile or broken Retry-After must not park a candidate's answers for an hour.
  maxRetryAfterMs: 120_000,
  // undefined = retry until it succeeds, becomes final, or the client is closed.
  maxAttempts: undefined,
  // Problem codes whose retries maxAttempts does not count: the server said when to come back.
  uncountedCodes: [],
});

/** @param {import('./errors.js').ApiError} err */
export function isRetryable(err) {
  if (!err) return false;
  if (err.code === ClientCodes.NETWORK_ERROR || err.code === ClientCodes.TIMEOUT) return true;
  if (err.status >= 500) return true;
  if (err.status === 429) return true;
  if (err.status === 409 && err.code === 'REQUEST_IN_PROGRESS') return true;
  return false;
}

/**
 * Retry-After is either delay-seconds or an HTTP date (RFC 9110 §10.2.3).
 * @param {string|null|undefined} value
 * @param {number} nowMs the (server-corrected) current time, for the HTTP-date form
 * @returns {number|null} milliseconds to wait, or null when absent/unparseable
 */
export function parseRetryAfter(value, nowMs) {
  if (value == null) return null;
  const text = String(value).trim();
  if (text === '') return null;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - nowMs);
}

/**
 * Full jitter: uniform in [0, min(cap, base * 2^attempt)). With Retry-After the server's
 * wait is a floor (never retry earlier than asked) plus a little jitter so that a crowd
 * told "5 s" does not come back in the same millisecond.
 * @param {number} attempt 0 for the first retry
 * @param {{retryAfterMs?: number|null}} err
 * @param {typeof DEFAULT_RETRY} policy
 * @param {() => number} random in [0, 1)
 */
export function retryDelayMs(attempt, err, policy, random) {
  const ceiling = Math.min(policy.capMs, policy.baseMs * 2 ** Math.min(attempt, 30));
  const jittered = Math.floor(random() * ceiling);
  if (err && err.retryAfterMs != null) {
    const floor = Math.min(err.retryAfterMs, policy.maxRetryAfterMs);
    return floor + Math.floor(random() * policy.baseMs);
  }
  return jittered;
}
