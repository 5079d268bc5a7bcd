/**
 * One JSON request with a timeout, and the retry loop around it. Every response feeds the
 * server clock. Errors become ApiError with the problem+json `code`.
 */
import { ApiError, ClientCodes } from './errors.js';
import { DEFAULT_RETRY, isRetryable, parseRetryAfter, retryDelayMs } from './retry.js';

/** Paths per service (docs/api.md §2, §4.2); the base URL of each is configurable. */
export const SERVICES = Object.freeze(['session', 'answer', 'submission', 'grading']);

/**
 * @param {{baseUrl?: string, baseUrls?: Partial<Record<string,string>>}} options
 * @returns {Record<string,string>} service → base URL without trailing slash ('' = same origin)
 */
export function resolveBaseUrls({ baseUrl = '', baseUrls = {} } = {}) {
  const out = {};
  for (const s of SERVICES) out[s] = String(baseUrls[s] ?? baseUrl).replace(/\/+$/, '');
  return out;
}

export class Http {
  /**
   * @param {{fetch: typeof fetch, baseUrls: Record<string,string>, clock: import('./time.js').ServerClock,
   *          timers: {setTimeout: Function, clearTimeout: Function}, random: () => number,
   *          timeoutMs: number, retry: typeof DEFAULT_RETRY}} deps
   */
  constructor({ fetch, baseUrls, clock, timers, random, timeoutMs, retry }) {
    this._fetch = fetch;
    this._baseUrls = baseUrls;
    this.clock = clock;
    this._timers = timers;
    this._random = random;
    this.timeoutMs = timeoutMs;
    this.retry = { ...DEFAULT_RETRY, ...retry };
    this._wakers = new Set();
  }

  /** Cut every retry wait short (the browser says it is online again). */
  wakeUp() {
    for (const wake of [...this._wakers]) wake();
  }

  /**
   * One attempt.
   * @param {string} service
   * @param {string} method
   * @param {string} path
   * @param {{token?: string, body?: unknown, rawBody?: string, headers?: Record<string,string>,
   *          timeoutMs?: number, signal?: AbortSignal}} [opts]
   * @returns {Promise<{status: number, body: any, headers: Headers}>}
   */
  async send(service, method, path, opts = {}) {
    const url = this._baseUrls[service] + path;
    const headers = { Accept: 'application/json, application/problem+json', ...(opts.headers || {}) };
    if (opts.token) headers.Authorization = `Bearer ${opts.token}`;
    let body;
    if (opts.rawBody !== undefined) body = opts.rawBody;
    else if (opts.body !== undefined) body = JSON.stringify(opts.body);
    if (body !== undefined) headers['Content-Type'] = 'application/json';

    const controller = new AbortController();
    let timedOut = false;
    const timer = this._timers.setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, opts.timeoutMs ?? this.timeoutMs);
    const onOuterAbort = () => controller.abort();
    opts.signal?.addEventListener('abort', onOuterAbort, { once: true });
    const sentAt = this.clock.localNow();
    try {
      let response;
      try {
        response = await this._fetch(url, { method, headers, body, signal: controller.signal, cache: 'no-store' });
      } catch (cause) {
        if (opts.signal?.aborted) throw new ApiError({ code: ClientCodes.ABORTED, detail: 'closed', cause });
        if (timedOut) throw new ApiError({ code: ClientCodes.TIMEOUT, detail: `no answer within ${opts.timeoutMs ?? this.timeoutMs} ms`, cause });
        throw new ApiError({ code: ClientCodes.NETWORK_ERROR, detail: String(cause?.message || cause), cause });
      }
      let text;
      try {
        text = await response.text();
      } catch (cause) {
        if (timedOut) throw new ApiError({ code: ClientCodes.TIMEOUT, detail: 'response body timed out', cause });
        throw new ApiError({ code: ClientCodes.NETWORK_ERROR, detail: 'response body lost', cause });
      }
      const receivedAt = this.clock.localNow();
      const parsed = parseJson(text);
      this.clock.observe(parsed, response.headers.get('date'), sentAt, receivedAt);
      if (response.ok) return { status: response.status, body: parsed, headers: response.headers };
      throw new ApiError({
        status: response.status,
        code: (parsed && typeof parsed.code === 'string' && parsed.code) || ClientCodes.HTTP_ERROR,
        title: parsed?.title,
        detail: parsed?.detail || `HTTP ${response.status}`,
        retryAfterMs: parseRetryAfter(response.headers.get('retry-after'), this.clock.now()),
        body: parsed,
      });
    } finally {
      this._timers.clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onOuterAbort);
    }
  }

  /**
   * Attempts until success or a final error. `onRetry(err, attempt, delayMs)` is called
   * before each wait; `shouldContinue()` false stops the loop (the caller gave up).
   */
  async call(service, method, path, opts = {}, { onRetry, shouldContinue, retry, signal } = {}) {
    const policy = { ...this.retry, ...retry };
    for (let attempt = 0, counted = 0; ; attempt++) {
      try {
        // opts may be a function: each attempt then sends what is current (newest answers).
        return await this.send(service, method, path, typeof opts === 'function' ? await opts() : opts);
      } catch (err) {
        if (!(err instanceof ApiError) || !isRetryable(err)) throw err;
        if (!policy.uncountedCodes?.includes(err.code)) counted++;
        if (policy.maxAttempts !== undefined && counted >= policy.maxAttempts) throw err;
        if (signal?.aborted || (shouldContinue && !shouldContinue())) throw err;
        const delay = retryDelayMs(attempt, err, policy, this._random);
        onRetry?.(err, attempt, delay);
        await this.sleep(delay, signal);
        if (signal?.aborted) throw new ApiError({ code: ClientCodes.ABORTED, detail: 'closed' });
        if (shouldContinue && !shouldContinue()) throw err;
      }
    }
  }

  /** A wait that wakeUp() or the signal can end early. */
  sleep(ms, signal) {
    return new Promise((resolve) => {
      let timer;
      const done = () => {
        this._timers.clearTimeout(timer);
        this._wakers.delete(done);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      timer = this._timers.setTimeout(done, ms);
      this._wakers.add(done);
      signal?.addEventListener('abort', done, { once: true });
    });
  }
}

function parseJson(text) {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
