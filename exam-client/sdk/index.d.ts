// Typed surface of the Exam Suite browser SDK (sdk/index.js). Contract: docs/api.md §3–4.

export type QuestionType = 'SINGLE' | 'MULTIPLE' | 'TRUE_FALSE' | 'FILL' | 'NUMERIC' | 'ESSAY';

/** A question as candidates see it (no key, no tolerance). */
export interface Question {
  id: string;
  type: QuestionType;
  prompt: string;
  options?: string[];
  points?: number;
  scoring?: 'PARTIAL' | 'ALL_OR_NOTHING';
  /**
   * How prompt and options are written: absent or 'text' = plain text (show it as text only);
   * 'markdown' = CommonMark with $…$ / $$…$$ LaTeX and fenced code, checked by the server at
   * exam creation (docs/api.md §4.5); render it with raw HTML off and sanitise the result.
   */
  format?: 'text' | 'markdown';
  /**
   * With the exam's option shuffle: the indexes of `options` in the order this candidate sees
   * them (`options` stay in the exam's order; answers name options by text). Show them with
   * {@link optionsInOrder}. The paper's questions already come in the candidate's order.
   */
  optionOrder?: number[];
}

/** SINGLE: option; MULTIPLE: options; TRUE_FALSE: boolean; FILL/ESSAY: string; NUMERIC: number; null clears. */
export type AnswerValue = string | string[] | boolean | number | null;

export interface Credentials {
  examId: string;
  candidateId: string;
  accessCode: string;
}

/** Final sheet / draft shape: `{q: {value, version}}` (docs/api.md §3.4). */
export type AnswerSheet = Record<string, { value: AnswerValue; version: number }>;

export interface Paper {
  paperId: string;
  sessionId?: string;
  submittedAt?: string;
  submittedBy?: 'CANDIDATE' | 'AUTO' | 'PROCTOR';
  answers?: AnswerSheet;
  answerCount?: number;
  lateChanges?: number;
  digest?: string;
  signature?: string;
}

export interface RetryPolicy {
  /** First backoff ceiling (ms); doubles per attempt up to capMs; full jitter below it. */
  baseMs: number;
  capMs: number;
  /** Upper bound on a server's Retry-After. */
  maxRetryAfterMs: number;
  /** undefined = until success, a final error, or close(). */
  maxAttempts?: number;
  /** Problem codes whose retries maxAttempts does not count (e.g. SESSIONS_BUSY, paced by the server). */
  uncountedCodes?: string[];
}

export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(id: unknown): void;
}

export interface ExamClientOptions {
  /** One ingress base for every service ('' = same origin, the default). */
  baseUrl?: string;
  /** Per-service bases; each falls back to baseUrl. */
  baseUrls?: Partial<Record<'session' | 'answer' | 'submission' | 'grading', string>>;
  /** IndexedDB database name. Default 'exam-client'. */
  dbName?: string;
  /** Autosave debounce. Default 1500 ms. */
  debounceMs?: number;
  /** Longest an unsaved change waits while the candidate keeps typing. Default 10 000 ms. */
  maxWaitMs?: number;
  /** Per-request timeout (AbortController). Default 15 000 ms. */
  timeoutMs?: number;
  /** Heartbeat period; 0 disables it. Default 30 000 ms. */
  heartbeatMs?: number;
  /** Delay before proctoring events are sent in a batch. Default 2000 ms. */
  eventsFlushMs?: number;
  /** Hand in the sheet when the server's deadline passes (after re-checking it). Default true. */
  autoSubmitAtDeadline?: boolean;
  maxRequestBytes?: number;
  maxValueBytes?: number;
  retry?: Partial<RetryPolicy>;
  /**
   * The live WebSocket channel (/api/v1/sessions/{id}/live): true (default, DEFAULT_LIVE),
   * false (HTTP heartbeat only), or overrides of DEFAULT_LIVE.
   */
  live?: boolean | Partial<LiveOptions>;
  // Injection points (tests, non-browser hosts). Default to the browser's globals.
  fetch?: typeof fetch;
  indexedDB?: IDBFactory;
  timers?: Timers;
  now?: () => number;
  random?: () => number;
  locks?: LockManager | null;
  BroadcastChannel?: typeof BroadcastChannel | null;
  uuid?: () => string;
  window?: Window | null;
  /** WebSocket constructor (default: the global one; Node 20 has none). null = no sockets, HTTP heartbeat only. */
  WebSocket?: WebSocketConstructor | null;
}

/** What the SDK needs of a WebSocket constructor (the browser's, or e.g. the `ws` package's). */
export type WebSocketConstructor = new (url: string, protocols?: string | string[]) => {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  // `any`: the browser's handlers take its own event types ({data} and {code, reason} are read).
  onmessage: ((event: any) => void) | null;
  onclose: ((event: any) => void) | null;
  onerror: ((event: any) => void) | null;
};

export interface LiveOptions {
  /** The client sends {"type":"TIME"} this often (application-level ping). Default 20 000 ms. */
  pingMs: number;
  /** No message for this long: the socket is dead, it is replaced. Default 45 000 ms. */
  deadAfterMs: number;
  /** Reconnect backoff: full jitter under min(capMs, baseMs × 2^attempt). Defaults 1000 / 30 000 ms. */
  baseMs: number;
  capMs: number;
  /** Attempts in a row that never bring a message before 'fallback'. Default 4. */
  fallbackAfter: number;
  /** In fallback, a socket is tried again after ½–1 × this. Default 300 000 ms. */
  fallbackRetryMs: number;
  /** HTTP heartbeat period while the socket is open (it renews the token): at most half of what is left of the token. Default 300 000 ms. */
  heartbeatMs: number;
}

/**
 * 'connecting' | 'open' (the server speaks on the socket; the heartbeat slows down) |
 * 'closed' (reconnecting after a backoff) | 'fallback' (sockets fail: HTTP heartbeat at its
 * normal rate, a socket is tried now and then) | 'off' (not running: disabled, read-only tab,
 * submitted, taken over, 4401/4403).
 */
export type LiveState = 'connecting' | 'open' | 'closed' | 'fallback' | 'off';

export interface LiveEvent {
  state: LiveState;
  /** The close code that led here (4401, 4403, 4409 final; 4000 = no message for deadAfterMs; 1006 abnormal). */
  code?: number;
  /** 'closed' / 'fallback': when the next attempt is made. */
  retryInMs?: number;
  /** 'closed' after missed pings. */
  dead?: boolean;
  failures?: number;
  /** 'fallback' without any WebSocket constructor. */
  reason?: 'unsupported';
}

export type StatusState = 'saved' | 'saving' | 'offline-saved-locally' | 'syncing' | 'submitting' | 'submitted' | 'error';

export type LockReason = 'other-tab' | 'taken-over' | 'submitted' | 'submitting' | 'submit-failed' | 'closed' | 'deadline';

export interface ErrorInfo {
  status: number;
  code: ErrorCode;
  title?: string;
  detail?: string;
}

export interface StatusEvent {
  state: StatusState;
  /** A calm default sentence for the state (a page may show its own). */
  message: string;
  error: ErrorInfo | null;
  /** Changed questions the server has not acknowledged (they are on this device). */
  pending: number;
  offline: boolean;
  lock: LockReason | null;
}

export type SubmitState = 'editing' | 'submitting' | 'submitted' | 'failed-final';

export interface ExamClientEvents {
  status: StatusEvent;
  lock: { reason: LockReason | null };
  /** Answers replaced by a merge with the server's draft. */
  answers: { questionIds: string[] };
  submitted: Paper | null;
  stale: Array<{ questionId: string; heldVersion: number }>;
  rejected: { questionId: string; error: ErrorInfo };
  /**
   * Proctor commands, by socket or heartbeat, each id once: {id, type: 'WARNING'|'ANNOUNCEMENT'|'EXTENDED'|'TAKEN_OVER'|'SUBMITTED'|'FORCE_SUBMITTED'|'PAUSED'|'RESUMED', at, ...}.
   * EXTENDED moves the deadline, SUBMITTED/FORCE_SUBMITTED end editing, a TAKEN_OVER with a higher epoch locks this device,
   * PAUSED stops the clock and RESUMED restarts it with the moved deadline, before the event.
   */
  command: { id?: number; type?: string; at?: string; message?: string; [k: string]: unknown };
  heartbeat: Record<string, unknown>;
  /** The live channel's state changed. */
  live: LiveEvent;
  /** A proctor paused or resumed the session (or its exam): the clock stands still while paused; answers are still saved. */
  pause: { paused: boolean; remainingMs: number | null };
  /** The questions flagged for review, in the paper's order: after setFlag, and when a merge brought another device's flags. */
  flags: { questionIds: string[] };
  warning: unknown;
}

export declare class ExamClient {
  /** POST /api/v1/sessions, then open (merges with this device's answers for the session). */
  static start(credentials: Credentials, options?: ExamClientOptions): Promise<ExamClient>;
  /** Reopen from IndexedDB alone (works offline); null when this browser has no session. */
  static resume(sessionId?: string, options?: ExamClientOptions): Promise<ExamClient | null>;
  /** Forget which session this browser works on; its data stays (a submitted one's receipt, an unsubmitted one's answers). */
  static clearCurrent(options?: ExamClientOptions): Promise<void>;

  readonly sessionId: string;
  readonly deviceEpoch: number;
  readonly questions: Question[];
  readonly state: SubmitState;
  readonly paper: Paper | null;
  readonly deadline: number | null;
  readonly status: StatusEvent;
  readonly lockMechanism: 'web-locks' | 'broadcast-channel' | 'none';
  readonly liveState: LiveState;

  answers(): Record<string, Exclude<AnswerValue, null>>;
  answer(questionId: string): AnswerValue;
  /**
   * The image of one of the exam's figures (`![what it shows](figure:<id>)` in a Markdown question), fetched with the
   * session's token and kept by the browser's cache; network failures and 503s are tried again up to three times.
   */
  figure(figureId: string): Promise<Blob>;
  pendingCount(): number;
  /** Server time, epoch ms (local clock + offset measured on every response). */
  serverNow(): number;
  /** Milliseconds to the server's deadline by the server's clock; null without a deadline. */
  remainingMs(): number | null;
  /** True while a proctor has paused the session or its exam (status PAUSED). */
  isPaused(): boolean;
  lockReason(): LockReason | null;
  isEditable(): boolean;

  /** Writes IndexedDB first; rejects with ApiError EDITING_LOCKED | UNKNOWN_QUESTION | INVALID_ANSWER. */
  setAnswer(questionId: string, value: AnswerValue): Promise<{ version: number }>;
  /**
   * The candidate's own flag for review on a question (or its removal): kept in the draft's
   * reserved entry REVIEW_FLAGS_ID, written to IndexedDB first and autosaved like an answer, so
   * it survives a reload and reaches another device; never part of the paper. Rejects with
   * ApiError EDITING_LOCKED | UNKNOWN_QUESTION.
   */
  setFlag(questionId: string, flagged: boolean): Promise<{ flagged: string[] }>;
  /** The questions flagged for review, in the paper's order. */
  reviewFlags(): string[];
  isFlagged(questionId: string): boolean;
  /** Send pending answers now instead of after the debounce. */
  flush(): Promise<void>;
  /** Idempotent: the same promise while submitting; the paper once submitted. */
  submit(): Promise<Paper>;
  heartbeat(): Promise<Record<string, unknown> | null>;
  /** type: an upper-case name (FOCUS_LOST, TAB_HIDDEN, FULLSCREEN_EXIT, PASTE, …); detail ≤ 500 characters; fields.length: a PASTE's pasted characters. */
  recordEvent(type: string, detail?: string, fields?: { length?: number }): Promise<string>;
  startProctoring(target?: { document?: Document; window?: Window }): () => void;
  flushEvents(): Promise<void>;
  takeOverFromOtherTab(): Promise<void>;
  close(): Promise<void>;
  /**
   * Remove everything this browser holds of this session (token, answers, unsent events, the receipt) and close: for a
   * shared PC. Once the paper is confirmed the SDK already keeps only a receipt (no token, no answers); before, answers
   * not yet saved are lost.
   */
  forget(): Promise<void>;

  on<K extends keyof ExamClientEvents>(type: K, listener: (detail: ExamClientEvents[K]) => void): () => void;
}

/** The draft entry that holds the review flags ("~review"; no question id starts with "~"). */
export declare const REVIEW_FLAGS_ID: '~review';

/** Every problem code the suite's services answer with (docs/api.md). */
// generated by scripts/problem-codes.mjs from suite-contracts ProblemCode: do not edit
export type ServerProblemCode =
  | 'ACCESS_DENIED'
  | 'ANSWER_SERVICE_UNAVAILABLE'
  | 'AUTO_SUBMIT_CLAIMED'
  | 'BAD_REQUEST'
  | 'CONFLICT'
  | 'EXAM_NOT_FOUND'
  | 'EXAM_NOT_OPEN'
  | 'EXAM_PUBLISHED'
  | 'FIGURE_NOT_FOUND'
  | 'FORBIDDEN'
  | 'HEADERS_TOO_LARGE'
  | 'IDEMPOTENCY_KEY_INVALID'
  | 'IDEMPOTENCY_KEY_MISSING'
  | 'IDEMPOTENCY_KEY_REUSED'
  | 'INTERNAL_ERROR'
  | 'INVALID_ANSWER'
  | 'INVALID_FIELD'
  | 'INVALID_FIGURE'
  | 'INVALID_MARK'
  | 'MALFORMED_JSON'
  | 'MALFORMED_URI'
  | 'METHOD_NOT_ALLOWED'
  | 'NOT_ACCEPTABLE'
  | 'NOT_AWAITING_MARKS'
  | 'NOT_FOUND'
  | 'PAPER_IN_PROGRESS'
  | 'PAPER_MISMATCH'
  | 'PAPER_NOT_FOUND'
  | 'PAPER_UNAVAILABLE'
  | 'PAYLOAD_TOO_LARGE'
  | 'PRECONDITION_FAILED'
  | 'PRECONDITION_REQUIRED'
  | 'QUESTION_NOT_FOUND'
  | 'RATE_LIMITED'
  | 'REQUEST_IN_PROGRESS'
  | 'RESULTS_NOT_RELEASED'
  | 'RESULT_NOT_FOUND'
  | 'SAGA_NOT_FOUND'
  | 'SAGA_NOT_RETRYABLE'
  | 'SAGA_SUPERSEDED'
  | 'SERVICE_UNAVAILABLE'
  | 'SESSIONS_BUSY'
  | 'SESSION_CLOSED'
  | 'SESSION_NOT_FOUND'
  | 'SESSION_STATE_UNAVAILABLE'
  | 'SESSION_SUBMITTED'
  | 'SESSION_TAKEN_OVER'
  | 'SUBMISSIONS_BUSY'
  | 'SUBMISSIONS_OVERLOADED'
  | 'SUBMISSION_REJECTED'
  | 'SUBMISSION_UNAVAILABLE'
  | 'TOO_MANY_ATTEMPTS'
  | 'TOO_MANY_FIGURES'
  | 'TOO_MANY_REQUESTS'
  | 'UNAUTHORIZED'
  | 'UNKNOWN_QUESTION'
  | 'UNSAFE_CONTENT'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'UPSTREAM_UNAVAILABLE'
  | 'URI_TOO_LONG'
  | 'VALIDATION_FAILED';
// end of generated problem codes

/** A code the SDK raises itself when the server did not answer with one (ClientCodes). */
export type ClientCode = keyof typeof ClientCodes;

/** ApiError's code: the server's, the SDK's own, or `HTTP_<status>` for a framework refusal no code names. */
export type ErrorCode = ServerProblemCode | ClientCode | `HTTP_${number}`;

export declare const ClientCodes: Readonly<{
  NETWORK_ERROR: 'NETWORK_ERROR';
  TIMEOUT: 'TIMEOUT';
  ABORTED: 'ABORTED';
  EDITING_LOCKED: 'EDITING_LOCKED';
  AUTH_REQUIRED: 'AUTH_REQUIRED';
  INVALID_ANSWER: 'INVALID_ANSWER';
  UNKNOWN_QUESTION: 'UNKNOWN_QUESTION';
  PAYLOAD_TOO_LARGE: 'PAYLOAD_TOO_LARGE';
  HTTP_ERROR: 'HTTP_ERROR';
}>;

export declare class ApiError extends Error {
  constructor(p: { status?: number; code: ErrorCode; title?: string; detail?: string; retryAfterMs?: number | null; body?: unknown; cause?: unknown });
  readonly status: number;
  readonly code: ErrorCode;
  readonly title?: string;
  readonly detail?: string;
  readonly retryAfterMs: number | null;
  readonly body: unknown;
  toJSON(): ErrorInfo;
}

export declare const DEFAULT_OPTIONS: Readonly<Required<Pick<ExamClientOptions,
  'baseUrl' | 'baseUrls' | 'dbName' | 'debounceMs' | 'maxWaitMs' | 'timeoutMs' | 'heartbeatMs' | 'eventsFlushMs'
  | 'autoSubmitAtDeadline' | 'maxRequestBytes' | 'maxValueBytes'>> & { retry: RetryPolicy; live: boolean | Partial<LiveOptions> }>;
export declare const STATUS_MESSAGES: Readonly<Record<StatusState, string>>;
export declare const DEFAULT_RETRY: Readonly<RetryPolicy>;
export declare function defaultUuid(): string;
export declare function isRetryable(err: unknown): boolean;
export declare function parseRetryAfter(value: string | null | undefined, nowMs: number): number | null;
export declare function retryDelayMs(attempt: number, err: { retryAfterMs?: number | null } | null, policy: RetryPolicy, random: () => number): number;

export interface Stamp {
  epoch: number;
  version: number;
}
export interface LocalAnswer {
  value: AnswerValue;
  epoch: number | null;
  version: number;
  ackedVersion: number;
  sentVersion: number;
}
export declare function compareStamps(a: Stamp, b: Stamp): number;
export declare function mergeDraft(
  local: Map<string, LocalAnswer>,
  serverAnswers: Record<string, { value: AnswerValue; version: number; epoch?: number }>,
  ctx: { tokenEpoch: number; regenerated?: boolean },
): {
  adopt: Array<{ questionId: string; value: AnswerValue; version: number; epoch: number | null }>;
  push: string[];
  inSync: Array<{ questionId: string; version: number }>;
};

export declare class ServerClock {
  constructor(now?: () => number, offsetMs?: number);
  offsetMs: number;
  now(): number;
  localNow(): number;
  observe(body: unknown, dateHeader: string | null, sentAt: number, receivedAt: number): void;
  onChange(fn: (offsetMs: number) => void): () => void;
}

export declare const DEFAULT_LIVE: Readonly<LiveOptions>;
export declare const LIVE_SUBPROTOCOL: 'exam-live';
export declare const LIVE_CLOSE: Readonly<{ UNAUTHORIZED: 4401; FORBIDDEN: 4403; TAKEN_OVER: 4409 }>;
/** ws(s)://…/api/v1/sessions/{id}/live from the session service's base URL ('' = the page's origin). */
export declare function liveUrl(sessionBase: string, sessionId: string, pageHref?: string): string;
/** The socket keeper ExamClient uses (exported for hosts that want the channel alone). */
export declare class LiveChannel {
  constructor(deps: {
    url: () => string;
    token: () => string;
    WebSocket: WebSocketConstructor | null | undefined;
    timers: Timers;
    random: () => number;
    now: () => number;
    options?: Partial<LiveOptions>;
    onMessage: (message: any, pingSentAt: number | null) => void;
    onState: (state: LiveState, detail: Omit<LiveEvent, 'state'>) => void;
    onFinal: (code: number) => void;
  });
  readonly state: LiveState;
  readonly options: LiveOptions;
  start(): void;
  stop(): void;
  wakeUp(): void;
  send(message: unknown): void;
}

export declare class WriterLock {
  constructor(name: string, deps: { locks?: LockManager | null; BroadcastChannel?: typeof BroadcastChannel | null; timers: Timers; probeMs?: number; random?: () => number; now?: () => number });
  readonly name: string;
  readonly tabId: string;
  readonly held: boolean;
  readonly mechanism: 'web-locks' | 'broadcast-channel' | 'none';
  acquire(opts?: { steal?: boolean }): Promise<boolean>;
  release(): void;
  onLost(fn: () => void): () => void;
}

export declare const PROCTOR_EVENTS: Readonly<{ TAB_HIDDEN: 'TAB_HIDDEN'; FOCUS_LOST: 'FOCUS_LOST'; FULLSCREEN_EXIT: 'FULLSCREEN_EXIT'; PASTE: 'PASTE' }>;
export declare function watchProctoring(target: { document?: Document | null; window?: Window | null }, record: (type: string) => void): () => void;
export declare const QUESTION_TYPES: readonly QuestionType[];
/**
 * A question's options in display order (`optionOrder`, else the exam's order), each with its
 * index in `options` (docs/api.md §3.1, "Order and pools per candidate").
 */
export declare function optionsInOrder(question: Pick<Question, 'options' | 'optionOrder'>): { index: number; option: string }[];

export declare function invalidReason(question: Pick<Question, 'type' | 'options'>, value: AnswerValue, maxValueBytes?: number): string | null;
