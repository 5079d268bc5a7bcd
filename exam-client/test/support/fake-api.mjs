/**
 * FAKE exam API — an in-memory imitation of the suite's public HTTP contract
 * (docs/api.md §3–4: sessions, answers, submissions), used ONLY by the SDK's unit tests and
 * by the page-rendering end-to-end tests. It is not the suite and proves nothing about the
 * real services; e2e/suite.e2e.test.mjs runs against those.
 *
 * It implements just enough to exercise a client: stamp convergence (epoch, version) per
 * question, stale answers, generation changes (simulated Redis loss), takeover (higher
 * epoch), SESSION_CLOSED after deadline + grace, Idempotency-Key semantics for submissions,
 * and event deduplication, keyed session starts. Faults are injected with `fake.before = (req) => response|Error|undefined`
 * and, for an answer lost after the server acted, `fake.after = (req, response) => Error|undefined`.
 *
 * The live channel (/api/v1/sessions/{id}/live) mirrors session-service's LiveSocket: token
 * as second subprotocol or AUTH message, TIME on open and on request, commands pushed with
 * their heartbeat ids, 4401/4403/4409. Unit tests use `fake.WebSocket` (in memory, events on
 * later event-loop turns, no timers); listen() serves it for browsers. Socket faults:
 * `fake.liveRefuse` (upgrades fail, as behind a proxy that blocks them), `fake.liveSilent`
 * (sockets open but the server never speaks), `fake.dropLive()` (every socket goes dead
 * without a close), `fake.cutLive()` (every socket closes abnormally, 1006).
 */
import http from 'node:http';
import { WebSocketServer } from 'ws';

const problem = (status, code, detail, headers = {}, extra = {}) => ({
  status,
  headers: { 'content-type': 'application/problem+json', ...headers },
  body: { type: 'about:blank', title: code, status, detail, code, ...extra },
});
const json = (status, body, headers = {}) => ({ status, headers: { 'content-type': 'application/json', ...headers }, body });

export const SAMPLE_QUESTIONS = [
  { id: 'q1', type: 'SINGLE', prompt: '2+2?', options: ['3', '4'], points: 2, key: '4' },
  { id: 'q2', type: 'MULTIPLE', prompt: 'Primes?', options: ['2', '4', '5'], points: 3, key: ['2', '5'] },
  { id: 'q3', type: 'TRUE_FALSE', prompt: '0 is even', points: 1, key: true },
  { id: 'q4', type: 'FILL', prompt: 'Capital of France', points: 1, key: ['Paris'] },
  { id: 'q5', type: 'NUMERIC', prompt: 'pi to 2 dp', points: 1, key: 3.14, tolerance: 0.005 },
  { id: 'q6', type: 'ESSAY', prompt: 'Explain why.', points: 10 },
];

function stampGreater(a, b) {
  return a.epoch !== b.epoch ? a.epoch > b.epoch : a.version > b.version;
}

export class FakeExamApi {
  /** @param {{now?: () => number}} [opts] now = the fake server's clock */
  constructor({ now = () => Date.now() } = {}) {
    this.now = now;
    this.exams = new Map();
    this.sessions = new Map();
    this.tokens = new Map();
    this.drafts = new Map();
    this.snapshots = new Map(); // "PostgreSQL" copy of each draft, for loseRedis()
    this.papers = new Map();
    this.idempotency = new Map();
    this.inFlightKeys = new Set();
    this.events = new Map();
    this.commands = new Map();
    this.log = [];
    this.before = null;
    this.after = null;
    this.startKeys = new Map(); // `${examId}/${candidateId}/${key}` → {epoch, status}
    this._seq = 0;
    this.liveListeners = new Set(); // authenticated sockets: {sessionId, epoch, peer}
    this.liveConnections = 0; // sockets the fake accepted (for assertions)
    this.liveAttempts = 0; // in-memory sockets created, accepted or not
    this.liveRefuse = false;
    this.liveSilent = false;
    this.tokenTtlMs = 15 * 60_000; // only reported (tokenExpiresAt): fake tokens never expire
    const api = this;
    this.WebSocket = class extends FakeWebSocket {
      constructor(url, protocols) {
        super(api, url, protocols);
      }
    };
  }

  /** A figure of EXAM_ID (as session-service stores an upload): served to the exam's candidates only. */
  addFigure(examId, figureId, mediaType, bytes) {
    this.figures ??= new Map();
    this.figures.set(`${examId}/${figureId}`, { mediaType, bytes: Buffer.from(bytes) });
  }

  figure(headers, examId, figureId) {
    const claims = this.tokens.get((headers.get('authorization') || '').replace(/^Bearer /, ''));
    if (!claims) return problem(401, 'UNAUTHORIZED', 'no or bad token');
    const figure = this.sessions.get(claims.sessionId)?.examId === examId ? this.figures?.get(`${examId}/${figureId}`) : null;
    if (!figure) return problem(404, 'FIGURE_NOT_FOUND', 'No such figure.');
    return { status: 200, headers: { 'content-type': figure.mediaType, 'cache-control': 'private, max-age=31536000, immutable' }, body: figure.bytes };
  }

  /** Create an exam directly (the operator API is not part of the fake). */
  createExam({ examId = `exam-${++this._seq}`, questions = SAMPLE_QUESTIONS, durationMs = 3_600_000, graceMs = 30_000, candidates = { 'c-001': 'code-001' } } = {}) {
    this.exams.set(examId, { examId, questions, durationMs, graceMs, candidates: new Map(Object.entries(candidates)) });
    return examId;
  }

  /** Simulate Redis losing the draft: restore from the last snapshot, bump the generation. */
  loseRedis(sessionId) {
    const draft = this.drafts.get(sessionId);
    const snap = this.snapshots.get(sessionId) || { answers: {} };
    draft.answers = structuredClone(snap.answers);
    draft.generation += 1;
  }

  /** Take the "write-behind" snapshot now. */
  persist(sessionId) {
    this.snapshots.set(sessionId, { answers: structuredClone(this.drafts.get(sessionId).answers) });
  }

  /** The draft as GET /api/v1/answers shows it. */
  draftView(sessionId) {
    const d = this.drafts.get(sessionId);
    const answers = {};
    const epochs = {};
    for (const [q, a] of Object.entries(d.answers)) {
      answers[q] = { value: a.value, version: a.version };
      epochs[q] = a.epoch;
    }
    return { version: d.version, generation: d.generation, answers, epochs };
  }

  /** Answers with a non-null value, {q: value}. */
  currentAnswers(sessionId) {
    const out = {};
    for (const [q, a] of Object.entries(this.drafts.get(sessionId)?.answers || {})) if (a.value !== null) out[q] = a.value;
    return out;
  }

  papersFor(sessionId) {
    return this.papers.has(sessionId) ? [this.papers.get(sessionId)] : [];
  }

  /** A fetch() that answers from this fake. */
  fetch = async (url, init = {}) => {
    if (init.signal?.aborted) throw new DOMException('aborted', 'AbortError');
    const u = new URL(url, 'http://fake.local');
    const headers = new Headers(init.headers || {});
    const req = { method: (init.method || 'GET').toUpperCase(), path: u.pathname, query: u.searchParams, headers, rawBody: init.body ?? null };
    let res;
    try {
      res = await this.handle(req);
    } catch (err) {
      if (err instanceof Error && err.message === 'HANG') {
        // Never answers; only the caller's AbortController ends it.
        return new Promise((_, reject) => init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))));
      }
      throw err;
    }
    const body = res.body === undefined || res.body === null ? null : Buffer.isBuffer(res.body) ? res.body : JSON.stringify(res.body);
    return new Response(res.status === 204 ? null : body, { status: res.status, headers: { date: new Date(this.now()).toUTCString(), ...res.headers } });
  };

  /** @returns {Promise<{status, headers, body}>} throws TypeError for a simulated network failure */
  async handle(req) {
    let body = null;
    if (req.rawBody) {
      try {
        body = JSON.parse(req.rawBody);
      } catch {
        return problem(400, 'MALFORMED_JSON', 'bad json');
      }
    }
    const entry = { method: req.method, path: req.path, query: Object.fromEntries(req.query || []), headers: Object.fromEntries(req.headers), rawBody: req.rawBody, body };
    this.log.push(entry);
    if (this.before) {
      const injected = await this.before(entry);
      if (injected instanceof Error) throw injected;
      if (injected) return injected;
    }
    const response = this.route(req.method, req.path, req.headers, body, req.rawBody, entry.query);
    if (this.after) {
      const lost = await this.after(entry, response);
      if (lost instanceof Error) throw lost;
    }
    return response;
  }

  /** Queue a proctor command for the session's heartbeat (WARNING, EXTENDED, TAKEN_OVER, ...). */
  pushCommand(sessionId, command) {
    if (!this.commands.has(sessionId)) this.commands.set(sessionId, []);
    const list = this.commands.get(sessionId);
    const queued = { id: list.length + 1, at: new Date(this.now()).toISOString(), ...command };
    list.push(queued);
    // As LiveHub: to every socket of the session; a takeover also closes the older devices'.
    for (const l of [...this.liveListeners]) {
      if (l.sessionId !== sessionId || l.peer.dead) continue;
      l.peer.send(JSON.stringify(queued));
      if (queued.type === 'TAKEN_OVER' && l.epoch < queued.deviceEpoch) this.closeListener(l, 4409, 'SESSION_TAKEN_OVER');
    }
    return queued;
  }

  /** As LiveHub's exam-wide commands: one message, no id, to every socket of the exam's sessions. */
  broadcast(examId, command) {
    const sent = { at: new Date(this.now()).toISOString(), ...command };
    for (const l of [...this.liveListeners]) {
      if (l.peer.dead || this.sessions.get(l.sessionId)?.examId !== examId) continue;
      l.peer.send(JSON.stringify(sent));
    }
    return sent;
  }

  // ------------------------------------------------------------ live channel

  /**
   * A socket reached /api/v1/sessions/{id}/live. `peer` = {send(text), close(code, reason)}.
   * @returns {{message(text: string): void, closed(): void}} the server side's handlers
   */
  liveConnect(path, protocols, peer) {
    this.liveConnections++;
    const m = path.match(/^\/api\/v1\/sessions\/([^/]+)\/live$/);
    const listener = { sessionId: m ? decodeURIComponent(m[1]) : null, epoch: null, peer, authed: false };
    const reject = (code, name) => {
      peer.send(JSON.stringify({ type: 'ERROR', code: name }));
      peer.close(code, name);
    };
    const auth = (token) => {
      const claims = this.tokens.get(token);
      if (!claims) return reject(4401, 'UNAUTHORIZED');
      if (claims.sessionId !== listener.sessionId) return reject(4403, 'FORBIDDEN');
      const s = this.sessions.get(claims.sessionId);
      if (claims.epoch < s.epoch) return reject(4409, 'SESSION_TAKEN_OVER');
      listener.epoch = claims.epoch;
      listener.authed = true;
      this.liveListeners.add(listener);
      if (!this.liveSilent) peer.send(this.timeMessage(s));
      return undefined;
    };
    const token = protocols.find((p) => p !== 'exam-live');
    if (token) auth(token);
    return {
      message: (text) => {
        if (this.liveSilent || peer.dead) return;
        let msg;
        try {
          msg = JSON.parse(text);
        } catch {
          return peer.send(JSON.stringify({ type: 'ERROR', code: 'MALFORMED_JSON' }));
        }
        if (!listener.authed) return msg?.type === 'AUTH' && typeof msg.token === 'string' ? auth(msg.token) : reject(4401, 'UNAUTHORIZED');
        if (msg?.type === 'TIME') return peer.send(this.timeMessage(this.sessions.get(listener.sessionId)));
        return peer.send(JSON.stringify({ type: 'ERROR', code: 'UNKNOWN_MESSAGE' }));
      },
      closed: () => this.liveListeners.delete(listener),
    };
  }

  timeMessage(s) {
    const now = this.now();
    const message = {
      type: 'TIME',
      serverTime: new Date(now).toISOString(),
      deadline: new Date(s.deadlineMs).toISOString(),
      remainingMs: remaining(s, now),
      status: s.status,
      deviceEpoch: s.epoch,
    };
    if (s.paperId) message.paperId = s.paperId;
    return JSON.stringify(message);
  }

  /** The server's periodic TIME push (LiveHub every 30 s), now. */
  pushTime() {
    for (const l of this.liveListeners) if (!l.peer.dead && !this.liveSilent) l.peer.send(this.timeMessage(this.sessions.get(l.sessionId)));
  }

  closeListener(l, code, reason) {
    this.liveListeners.delete(l);
    l.peer.close(code, reason);
  }

  /** Open sockets of a session (authenticated and not dead). */
  liveSockets(sessionId) {
    return [...this.liveListeners].filter((l) => l.sessionId === sessionId && !l.peer.dead);
  }

  /** Every socket goes silent both ways without a close (a NAT forgot it). */
  dropLive() {
    for (const l of [...this.liveListeners]) {
      l.peer.dead = true;
      this.liveListeners.delete(l);
    }
  }

  /** Every socket closes abnormally (the network went away). */
  cutLive() {
    for (const l of [...this.liveListeners]) this.closeListener(l, 1006, '');
  }

  route(method, path, headers, body, rawBody, query = {}) {
    let m;
    if (method === 'POST' && path === '/api/v1/sessions') return this.startSession(body, headers);
    if ((m = path.match(/^\/api\/v1\/exams\/([^/]+)\/figures\/([0-9a-f]{64})$/)) && method === 'GET') return this.figure(headers, m[1], m[2]);
    if ((m = path.match(/^\/api\/v1\/sessions\/([^/]+)$/)) && method === 'GET') return this.withSession(headers, m[1], (s) => this.sessionView(s));
    if ((m = path.match(/^\/api\/v1\/sessions\/([^/]+)\/heartbeat$/)) && method === 'POST') return this.withSession(headers, m[1], (s, t) => this.heartbeat(s, t, Number(query.lastCommandId || 0)));
    if ((m = path.match(/^\/api\/v1\/sessions\/([^/]+)\/events$/)) && method === 'POST') return this.withSession(headers, m[1], (s) => this.addEvents(s, body));
    if ((m = path.match(/^\/api\/v1\/answers\/([^/]+)$/)) && method === 'PATCH') return this.withSession(headers, m[1], (s, t) => this.patch(s, t, body));
    if ((m = path.match(/^\/api\/v1\/answers\/([^/]+)$/)) && method === 'GET') return this.withSession(headers, m[1], (s) => json(200, this.draftView(s.sessionId)));
    if (method === 'POST' && path === '/api/v1/submissions') return this.submit(headers, body, rawBody);
    return problem(404, 'NOT_FOUND', `${method} ${path}`);
  }

  startSession(body, headers) {
    const exam = this.exams.get(body?.examId);
    if (!exam || exam.candidates.get(body.candidateId) !== body.accessCode) return problem(401, 'INVALID_CREDENTIALS', 'unknown exam, candidate or code');
    const existing = [...this.sessions.values()].find((s) => s.examId === exam.examId && s.candidateId === body.candidateId);
    // As session-service: a copy of a keyed start gets the epoch (and status) its first copy got.
    const key = headers?.get?.('idempotency-key') ?? null;
    const keyed = key ? this.startKeys.get(`${exam.examId}/${body.candidateId}/${key}`) : undefined;
    if (keyed) return this.startAnswer(exam, existing, keyed.epoch, keyed.status, { 'idempotent-replayed': 'true' });
    let session = existing;
    if (session) {
      session.epoch += 1;
      // As session-service: the device before this one is told (and its socket closed).
      this.pushCommand(session.sessionId, { type: 'TAKEN_OVER', deviceEpoch: session.epoch });
    } else {
      session = { sessionId: `ses-${++this._seq}`, examId: exam.examId, candidateId: body.candidateId, epoch: 1, deadlineMs: this.now() + exam.durationMs, graceMs: exam.graceMs, status: 'IN_PROGRESS', paperId: null };
      this.sessions.set(session.sessionId, session);
      this.drafts.set(session.sessionId, { version: 0, generation: 1, answers: {} });
    }
    if (key) this.startKeys.set(`${exam.examId}/${body.candidateId}/${key}`, { epoch: session.epoch, status: existing ? 200 : 201 });
    return this.startAnswer(exam, session, session.epoch, existing ? 200 : 201);
  }

  startAnswer(exam, session, epoch, status, headers = {}) {
    const token = this.issueToken(session, epoch);
    return json(status, {
      sessionId: session.sessionId,
      token,
      tokenExpiresAt: new Date(this.now() + this.tokenTtlMs).toISOString(),
      deviceEpoch: epoch,
      deadline: new Date(session.deadlineMs).toISOString(),
      serverTime: new Date(this.now()).toISOString(),
      status: session.status,
      paper: { questions: exam.questions.map(({ key, tolerance, ...q }) => q) },
    }, headers);
  }

  issueToken(session, epoch = session.epoch) {
    const token = `fake.${session.sessionId}.${epoch}.${++this._seq}`;
    this.tokens.set(token, { sessionId: session.sessionId, epoch });
    return token;
  }

  withSession(headers, sessionId, fn) {
    const auth = headers.get('authorization') || '';
    const claims = this.tokens.get(auth.replace(/^Bearer /, ''));
    if (!claims) return problem(401, 'UNAUTHORIZED', 'no or bad token');
    if (claims.sessionId !== sessionId) return problem(403, 'FORBIDDEN', 'not your session');
    return fn(this.sessions.get(sessionId), claims);
  }

  sessionView(s) {
    return json(200, {
      sessionId: s.sessionId,
      status: s.status,
      deadline: new Date(s.deadlineMs).toISOString(),
      serverTime: new Date(this.now()).toISOString(),
      remainingMs: remaining(s, this.now()),
      paperId: s.paperId,
    });
  }

  heartbeat(s, claims, lastCommandId) {
    if (claims.epoch < s.epoch) return problem(409, 'SESSION_TAKEN_OVER', 'newer device');
    const commands = (this.commands.get(s.sessionId) || []).filter((c) => c.id > lastCommandId);
    const token = this.issueToken({ ...s, epoch: claims.epoch });
    return json(200, { ...this.sessionView(s).body, token, tokenExpiresAt: new Date(this.now() + this.tokenTtlMs).toISOString(), commands });
  }

  addEvents(s, body) {
    if (!this.events.has(s.sessionId)) this.events.set(s.sessionId, new Map());
    const seen = this.events.get(s.sessionId);
    for (const e of body?.events || []) if (!seen.has(e.eventId)) seen.set(e.eventId, e);
    return { status: 202, headers: {}, body: null };
  }

  patch(s, claims, body) {
    const exam = this.exams.get(s.examId);
    const draft = this.drafts.get(s.sessionId);
    if (s.status === 'SUBMITTED' || (s.status !== 'PAUSED' && this.now() > s.deadlineMs + s.graceMs)) return problem(409, 'SESSION_CLOSED', 'closed'); // paused: taken whatever the deadline
    if (claims.epoch < s.epoch) return problem(409, 'SESSION_TAKEN_OVER', 'newer device');
    const version = body?.version;
    if (!Number.isInteger(version) || version < 1) return problem(400, 'VALIDATION_FAILED', 'version');
    for (const c of body.changes || []) {
      const q = exam.questions.find((x) => x.id === c.questionId);
      // Like answer-service, name the refused answer (problem extension member questionId),
      // unless the test asks for the anonymous form.
      const extra = this.anonymousRejections ? {} : { questionId: c.questionId };
      if (c.questionId === '~review') {
        // the review flags: null, or distinct question ids of the exam (suite-common ReviewFlags)
        const ids = exam.questions.map((x) => x.id);
        const ok = c.value === null || (Array.isArray(c.value) && new Set(c.value).size === c.value.length && c.value.every((v) => ids.includes(v)));
        if (!ok) return problem(400, 'INVALID_ANSWER', c.questionId, {}, extra);
        continue;
      }
      if (!q) return problem(400, 'UNKNOWN_QUESTION', c.questionId, {}, extra);
      if (c.value === 'INVALID') return problem(400, 'INVALID_ANSWER', c.questionId, {}, extra);
    }
    const applied = [];
    const stale = [];
    for (const c of body.changes || []) {
      const held = draft.answers[c.questionId];
      const stamp = { epoch: claims.epoch, version };
      if (!held || stampGreater(stamp, held)) {
        draft.answers[c.questionId] = { value: c.value, ...stamp };
        applied.push(c.questionId);
      } else stale.push({ questionId: c.questionId, heldVersion: held.version });
    }
    draft.version = Math.max(draft.version, ...Object.values(draft.answers).map((a) => a.version));
    return json(200, { version: draft.version, generation: draft.generation, applied, stale });
  }

  submit(headers, body, rawBody) {
    const key = headers.get('idempotency-key');
    if (!key) return problem(400, 'IDEMPOTENCY_KEY_MISSING', 'Idempotency-Key required');
    const claims = this.tokens.get((headers.get('authorization') || '').replace(/^Bearer /, ''));
    if (!claims) return problem(401, 'UNAUTHORIZED', 'no or bad token');
    if (body?.sessionId !== claims.sessionId) return problem(403, 'FORBIDDEN', 'not your session');
    const stored = this.idempotency.get(key);
    if (stored && stored.rawBody === rawBody) return { ...stored.response, headers: { ...stored.response.headers, 'idempotent-replayed': 'true' } };
    const s = this.sessions.get(claims.sessionId);
    if (this.papers.has(s.sessionId)) return json(200, this.papers.get(s.sessionId));
    if (stored) return problem(422, 'IDEMPOTENCY_KEY_REUSED', 'different body');
    const draft = this.drafts.get(s.sessionId);
    const merged = structuredClone(draft.answers);
    for (const [q, a] of Object.entries(body.answers || {})) {
      const stamp = { epoch: claims.epoch, version: a.version };
      if (!merged[q] || stampGreater(stamp, merged[q])) merged[q] = { value: a.value, ...stamp };
    }
    delete merged['~review']; // the review flags are never part of a paper
    const answers = {};
    for (const [q, a] of Object.entries(merged)) answers[q] = { value: a.value, version: a.version };
    const paper = {
      paperId: `paper-${++this._seq}`,
      sessionId: s.sessionId,
      submittedAt: new Date(this.now()).toISOString(),
      submittedBy: 'CANDIDATE',
      answers,
      answerCount: Object.values(answers).filter((a) => a.value !== null).length,
      lateChanges: 0,
      digest: 'fake',
    };
    this.papers.set(s.sessionId, paper);
    s.status = 'SUBMITTED';
    s.paperId = paper.paperId;
    const response = json(201, paper);
    this.idempotency.set(key, { rawBody, response });
    return response;
  }

  /** Serve this fake over HTTP (for the browser tests). Resolves with {server, port}. */
  listen(port = 0, host = '127.0.0.1') {
    const server = http.createServer(async (req, res) => {
      const chunks = [];
      for await (const c of req) chunks.push(c);
      const raw = chunks.length ? Buffer.concat(chunks).toString('utf8') : null;
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
      let out;
      try {
        const u = new URL(req.url, 'http://x');
        out = await this.handle({ method: req.method, path: u.pathname, query: u.searchParams, headers, rawBody: raw });
      } catch {
        req.socket.destroy(); // a simulated network failure
        return;
      }
      res.writeHead(out.status, { date: new Date(this.now()).toUTCString(), ...out.headers });
      res.end(out.body === null || out.body === undefined ? undefined : Buffer.isBuffer(out.body) ? out.body : JSON.stringify(out.body));
    });
    // The live channel, as session-service serves it (the server picks the subprotocol exam-live).
    const wss = new WebSocketServer({ noServer: true, handleProtocols: (offered) => (offered.has('exam-live') ? 'exam-live' : false) });
    server.on('upgrade', (req, socket, head) => {
      if (this.liveRefuse) return socket.destroy();
      return wss.handleUpgrade(req, socket, head, (ws) => {
        const protocols = String(req.headers['sec-websocket-protocol'] || '').split(',').map((p) => p.trim()).filter(Boolean);
        const peer = { send: (text) => ws.readyState === 1 && ws.send(text), close: (code, reason) => (code === 1006 ? ws.terminate() : ws.close(code, reason)) };
        const side = this.liveConnect(new URL(req.url, 'http://x').pathname, protocols, peer);
        ws.on('message', (data) => side.message(String(data)));
        ws.on('close', () => side.closed());
      });
    });
    const pushes = setInterval(() => this.pushTime(), 30_000);
    pushes.unref();
    server.on('close', () => {
      clearInterval(pushes);
      for (const ws of wss.clients) ws.terminate();
    });
    return new Promise((resolve) => server.listen(port, host, () => resolve({ server, port: server.address().port })));
  }
}

/**
 * An in-memory WebSocket (the browser's API surface the SDK uses) connected to a FakeExamApi.
 * Every event happens on a later event-loop turn (setImmediate), never on a timer, so the
 * tests' fake clock alone decides pings, dead-socket detection and backoff.
 */
export class FakeWebSocket {
  static CONNECTING = 0;
  static OPEN = 1;
  static CLOSING = 2;
  static CLOSED = 3;

  constructor(api, url, protocols = []) {
    api.liveAttempts++;
    this.url = url;
    this.protocols = [].concat(protocols);
    this.readyState = 0;
    this.protocol = '';
    this.onopen = this.onmessage = this.onclose = this.onerror = null;
    this._peer = { dead: false, send: (text) => this._fromServer(text), close: (code, reason) => this._serverClose(code, reason) };
    this._side = null;
    setImmediate(() => {
      if (this.readyState !== 0) return;
      if (api.liveRefuse) return this._serverClose(1006, ''); // the upgrade never succeeds
      this.readyState = 1;
      this.protocol = 'exam-live';
      this.onopen?.({});
      this._side = api.liveConnect(new URL(url, 'ws://fake.local').pathname, this.protocols, this._peer);
      return undefined;
    });
  }

  send(text) {
    if (this.readyState !== 1) throw new Error('InvalidStateError: not open');
    if (this._peer.dead) return;
    setImmediate(() => this._side?.message(String(text)));
  }

  close(code = 1005, reason = '') {
    if (this.readyState >= 2) return;
    this.readyState = 2;
    setImmediate(() => {
      this._side?.closed();
      this._finish(code, reason);
    });
  }

  _fromServer(text) {
    setImmediate(() => {
      if (this.readyState === 1 && !this._peer.dead) this.onmessage?.({ data: text });
    });
  }

  _serverClose(code, reason) {
    setImmediate(() => {
      this._side?.closed();
      this._finish(code, reason);
    });
  }

  _finish(code, reason) {
    if (this.readyState === 3) return;
    this.readyState = 3;
    this.onclose?.({ code, reason, wasClean: code !== 1006 });
  }
}

/** As session-service: none once submitted; standing still at pausedAtMs while PAUSED. */
function remaining(s, now) {
  if (s.status === 'SUBMITTED') return 0;
  return Math.max(0, s.deadlineMs - (s.status === 'PAUSED' && s.pausedAtMs ? s.pausedAtMs : now));
}
