/** Exam Suite browser SDK: see index.d.ts for the typed surface. */
export { ExamClient, DEFAULT_OPTIONS, STATUS_MESSAGES, defaultUuid } from './client.js';
export { ApiError, ClientCodes } from './errors.js';
export { isRetryable, parseRetryAfter, retryDelayMs, DEFAULT_RETRY } from './retry.js';
export { mergeDraft, compareStamps } from './merge.js';
export { ServerClock } from './time.js';
export { LiveChannel, DEFAULT_LIVE, LIVE_CLOSE, LIVE_SUBPROTOCOL, liveUrl } from './live.js';
export { WriterLock } from './writer-lock.js';
export { PROCTOR_EVENTS, watchProctoring } from './proctor.js';
export { invalidReason, QUESTION_TYPES } from './validate.js';
export { REVIEW_FLAGS_ID } from './review.js';
export { optionsInOrder } from './order.js';
