/**
 * Errors the SDK surfaces. `code` is the server's problem+json `code` when the server
 * answered, or one of the client-side codes below when it did not.
 */

/** Client-side codes (never sent by the server). */
export const ClientCodes = Object.freeze({
  NETWORK_ERROR: 'NETWORK_ERROR', // fetch rejected: offline, DNS, connection reset, CORS
  TIMEOUT: 'TIMEOUT', // our AbortController fired
  ABORTED: 'ABORTED', // the client was closed while the request was waiting
  EDITING_LOCKED: 'EDITING_LOCKED', // deadline passed, submitted, taken over, or another tab writes
  AUTH_REQUIRED: 'AUTH_REQUIRED', // the candidate token was refused: sign in again (answers stay on this device)
  INVALID_ANSWER: 'INVALID_ANSWER', // same code the server uses, raised before sending
  UNKNOWN_QUESTION: 'UNKNOWN_QUESTION',
  PAYLOAD_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  HTTP_ERROR: 'HTTP_ERROR', // a non-2xx without a problem+json code
});

export class ApiError extends Error {
  /**
   * @param {{status?: number, code: string, title?: string, detail?: string,
   *          retryAfterMs?: number|null, body?: unknown, cause?: unknown}} p
   */
  constructor({ status = 0, code, title, detail, retryAfterMs = null, body, cause }) {
    super(detail || title || code, cause === undefined ? undefined : { cause });
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.title = title;
    this.detail = detail;
    this.retryAfterMs = retryAfterMs;
    this.body = body;
  }

  /** A plain, serialisable view (for status events and IndexedDB). */
  toJSON() {
    return { status: this.status, code: this.code, title: this.title, detail: this.detail };
  }
}
