/**
 * The proctor console: plain ES module, no framework, no build step. Everything the server
 * sends is shown with textContent (never innerHTML), except the prompts and options of Markdown
 * questions, which go through the exam page's renderer (/content.js: markdown-it without raw
 * HTML, DOMPurify, KaTeX, highlight.js), loaded when the questions are first shown. Staff sign in through
 * the organisation's OpenID Connect provider when /console/config.json names one (oidc.js: code + PKCE),
 * else with a pasted operator token (the local dev path). The token
 * lives in this tab's sessionStorage and travels only in the Authorization header — or, for
 * the exam's watch socket, in Sec-WebSocket-Protocol, as browsers allow (docs/api.md §3.9) —
 * never in a URL or a log. Live updates come over that socket; while it is down the console
 * polls every 2 s.
 */
import { createOidc } from './oidc.js';

const TOKEN_KEY = 'examConsole.operatorToken';
const POLL_MS = 2000;
/** Changes that need the page read again (a new session, a filter it may leave) are gathered this long. */
const SETTLE_MS = 400;
const FEED_SIZE = 50;
/** Autosaves are not pushed (they are the hot path): answered counts and last saves are read with the page, at least this often. */
const ANSWERS_MS = 30_000;

const $ = (id) => document.getElementById(id);
const el = (tag, props = {}, children = []) => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === 'text') node.textContent = v;
    else if (k.startsWith('aria-') || k.startsWith('data-') || k === 'for' || k === 'role' || k === 'scope') node.setAttribute(k, v);
    else node[k] = v;
  }
  for (const c of children) node.append(c);
  return node;
};

// ---- API ------------------------------------------------------------------------------

class ApiError extends Error {
  constructor(status, body) {
    super(body?.detail || body?.title || `HTTP ${status}`);
    this.status = status;
    this.code = body?.code || `HTTP_${status}`;
    this.body = body;
  }
}

/** The sign-in through the identity provider, or null (pasted tokens); set before the first route(). */
let oidc = null;

function token() {
  return oidc ? oidc.accessToken() : sessionStorage.getItem(TOKEN_KEY);
}

async function api(method, path, body, headers = {}) {
  return (await apiFull(method, path, body, headers)).json;
}

/** The answer with its ETag (a draft's version, for If-Match). */
async function apiFull(method, path, body, headers = {}) {
  let res;
  try {
    res = await fetch(path, {
      method,
      headers: {
        authorization: `Bearer ${token()}`,
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': body instanceof Blob ? body.type : 'application/json' }),
        ...headers,
      },
      body: body === undefined || body instanceof Blob ? body : JSON.stringify(body), // a Blob: a figure's bytes
      cache: 'no-store',
    });
  } catch {
    throw new ApiError(0, { code: 'NETWORK_ERROR', detail: 'The suite cannot be reached.' });
  }
  const text = await res.text();
  let json = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  if (res.status === 401) {
    // an expired or revoked token: back to the sign-in, never retried with the same token
    signOut(oidc ? 'Your sign-in was refused or has expired. Sign in again.'
      : 'Your operator token was refused (expired or not an operator token). Sign in again.');
    throw new ApiError(401, json);
  }
  if (!res.ok) throw new ApiError(res.status, json);
  return { json, etag: res.headers.get('etag') };
}

const enc = encodeURIComponent;

// ---- formatting -----------------------------------------------------------------------

function fmtTime(iso) {
  if (!iso) return '—';
  const d = new Date(iso);
  return d.toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'medium' });
}

function fmtClock(iso) {
  if (!iso) return '—';
  return new Date(iso).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });
}

function fmtDuration(ms) {
  if (ms == null) return '—';
  const total = Math.max(0, Math.round(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const mm = String(m).padStart(2, '0');
  const ss = String(s).padStart(2, '0');
  return h ? `${h}:${mm}:${ss}` : `${mm}:${ss}`;
}

const STATUS_TEXT = { IN_PROGRESS: 'in progress', PAUSED: 'paused', SUBMITTED: 'submitted' };

function say(text) {
  $('status').textContent = text;
}

// ---- views and routing ----------------------------------------------------------------

function show(view) {
  for (const id of ['loading', 'login', 'exams', 'exam', 'draft']) $(id).hidden = id !== view;
  document.body.dataset.view = view;
}

let poller = null;
function stopPolling() {
  if (poller) clearInterval(poller);
  poller = null;
  live.stop();
}

function startFallbackPolling() {
  if (!poller && exam.id) poller = setInterval(refresh, POLL_MS);
}

function signOut(message) {
  sessionStorage.removeItem(TOKEN_KEY);
  stopPolling();
  $('who').hidden = true;
  $('signout').hidden = true;
  show('login');
  $('login-error').textContent = message || '';
  $('token-form').hidden = Boolean(oidc);
  $('idp-form').hidden = !oidc;
  if (oidc) $('idp-signin').focus();
  else {
    $('token').value = '';
    $('token').focus();
  }
}

/** Who the token names, for the header only (the server verifies the token): name or subject, and staff roles. */
function whoOf(jwt) {
  try {
    const payload = jwt.split('.')[1].replace(/-/g, '+').replace(/_/g, '/');
    const claims = JSON.parse(decodeURIComponent(escape(atob(payload))));
    const name = claims.name || claims.preferred_username || claims.sub || null;
    const roles = (Array.isArray(claims.groups) ? claims.groups : []).filter((r) => r !== 'operator');
    return name && roles.length ? `${name} (${roles.join(', ')})` : name;
  } catch {
    return null;
  }
}

function route() {
  stopPolling();
  say(''); // a message belongs to the screen it was said on
  if (!token()) return signOut();
  const who = whoOf(token());
  $('who').textContent = who ? `Signed in as ${who}` : 'Signed in';
  $('who').hidden = false;
  $('signout').hidden = false;
  const m = /^#\/exams\/([^/]+)$/.exec(location.hash);
  if (m) return openExam(decodeURIComponent(m[1]));
  const d = /^#\/drafts\/([^/]+)$/.exec(location.hash);
  if (d) return openDraft(decodeURIComponent(d[1]));
  return openExams();
}

// ---- login ----------------------------------------------------------------------------

$('token-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const value = $('token').value.trim().replace(/^Bearer\s+/i, '');
  $('login-error').textContent = '';
  if (!/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(value)) {
    $('login-error').textContent = 'That does not look like a token (three base64url parts separated by dots).';
    return;
  }
  sessionStorage.setItem(TOKEN_KEY, value);
  const hashAtSignIn = location.hash;
  try {
    await api('GET', '/api/v1/exams?limit=1'); // proves the token is an operator's before showing anything
  } catch (err) {
    if (err.status === 403) signOut('That token is valid but not an operator token.');
    else if (err.status !== 401) {
      sessionStorage.removeItem(TOKEN_KEY);
      $('login-error').textContent = `Cannot sign in: ${err.message}`;
    }
    return;
  }
  $('token').value = '';
  if (location.hash !== hashAtSignIn) return; // navigated meanwhile: hashchange has routed already
  if (!location.hash || location.hash === '#') location.hash = '#/exams';
  else route();
});

$('signout').addEventListener('click', async () => {
  location.hash = '';
  if (oidc && (await oidc.signOut())) return; // off to the provider, back here signed out
  signOut('Signed out.');
});

$('idp-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  $('login-error').textContent = '';
  try {
    await oidc.signIn();
  } catch (err) {
    $('login-error').textContent = `Cannot sign in: ${err.message}`;
  }
});

// ---- the exams list -------------------------------------------------------------------

let examsCursor = null;

async function openExams() {
  show('exams');
  document.title = 'Exams — Proctor console';
  $('exams-body').replaceChildren();
  examsCursor = null;
  $('drafts-body').replaceChildren();
  draftsCursor = null;
  await loadExams();
  await loadDrafts();
  $('exams-heading').focus?.();
}

async function loadExams() {
  let page;
  try {
    page = await api('GET', `/api/v1/exams?limit=50${examsCursor ? `&after=${enc(examsCursor)}` : ''}`);
  } catch (err) {
    if (err.status !== 401) say(`Could not load the exams: ${err.message}`);
    return;
  }
  for (const exam of page.exams) {
    const link = el('a', { href: `#/exams/${enc(exam.examId)}`, text: exam.title });
    const state = exam.paused ? `${exam.state}, paused` : exam.state;
    $('exams-body').append(el('tr', { 'data-exam-id': exam.examId }, [
      el('th', { scope: 'row' }, [link]),
      el('td', { text: state }),
      el('td', { text: fmtTime(exam.opensAt) }),
      el('td', { text: fmtTime(exam.closesAt) }),
      el('td', { text: fmtDuration(exam.durationSeconds * 1000) }),
      el('td', { text: String(exam.questions) }),
      el('td', { className: 'mono', text: exam.examId }),
    ]));
  }
  examsCursor = page.nextCursor;
  $('exams-more').hidden = !examsCursor;
  $('exams-empty').hidden = $('exams-body').children.length > 0;
}

$('exams-more').addEventListener('click', () => loadExams());

// ---- drafts: exams being written (docs/api.md §3.1, "Drafts") ------------------------

let draftsCursor = null;

/** The drafts the signed-in person may edit; the section stays hidden for those who author nothing (403). */
async function loadDrafts() {
  let page;
  try {
    page = await api('GET', `/api/v1/exams/drafts?limit=50${draftsCursor ? `&after=${enc(draftsCursor)}` : ''}`);
  } catch (err) {
    $('drafts').hidden = true;
    if (err.status !== 401 && err.status !== 403) say(`Could not load the drafts: ${err.message}`);
    return;
  }
  $('drafts').hidden = false;
  for (const d of page.drafts) {
    $('drafts-body').append(el('tr', { 'data-exam-id': d.examId }, [
      el('th', { scope: 'row' }, [el('a', { href: `#/drafts/${enc(d.examId)}`, text: d.title || 'Untitled draft' })]),
      el('td', { text: d.state === 'DRAFT' ? 'draft' : 'being published' }),
      el('td', { text: fmtTime(d.updatedAt) }),
      el('td', { text: d.updatedBy }),
      el('td', { className: 'mono', text: d.examId }),
    ]));
  }
  draftsCursor = page.nextCursor;
  $('drafts-more').hidden = !draftsCursor;
  $('drafts-empty').hidden = $('drafts-body').children.length > 0;
}

$('drafts-more').addEventListener('click', () => loadDrafts());

$('draft-new').addEventListener('click', async () => {
  try {
    const { json } = await apiFull('POST', '/api/v1/exams', { state: 'DRAFT', title: 'Untitled exam' }, { 'idempotency-key': crypto.randomUUID() });
    location.hash = `#/drafts/${enc(json.examId)}`;
  } catch (err) {
    if (err.status !== 401) say(`Could not create a draft: ${err.message}`);
  }
});

const draft = { id: null, etag: null, saved: null }; // saved: the members as last read or saved

/** An ISO instant as a datetime-local value in this browser's time zone; '' for none. */
function toLocalInput(iso) {
  if (!iso) return '';
  const d = new Date(iso);
  const p = (n) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
}

function showDraft(view, etag) {
  draft.etag = etag;
  draft.saved = view;
  $('draft-heading').textContent = view.title || 'Untitled draft';
  document.title = `${view.title || 'Draft'} — Proctor console`;
  $('draft-meta').textContent = `Draft, version ${view.version}; last changed ${fmtTime(view.updatedAt)} by ${view.updatedBy}.`;
  $('d-title').value = view.title || '';
  $('d-opens').value = toLocalInput(view.opensAt);
  $('d-closes').value = toLocalInput(view.closesAt);
  $('d-duration').value = view.durationSeconds == null ? '' : String(Math.round(view.durationSeconds / 60));
  $('d-grace').value = view.graceSeconds == null ? '' : String(view.graceSeconds);
  $('d-questions').value = view.questions ? JSON.stringify(view.questions, null, 2) : '';
  $('draft-problems').replaceChildren();
  loadFigures(draft.id);
}

const figurePreviews = new Map(); // figure id → blob: URL (figures never change)

/** The draft's figures, each with a preview and the Markdown line that shows it. */
async function loadFigures(examId) {
  let list;
  try {
    list = (await api('GET', `/api/v1/exams/${enc(examId)}/figures`)).figures;
  } catch (err) {
    if (err.status !== 401) say(`Could not load the figures: ${err.message}`);
    return;
  }
  $('d-figures').replaceChildren(...list.map((f) => {
    const line = `![what it shows](figure:${f.figureId})`;
    const preview = el('img', { className: 'figure-preview', alt: '' });
    showPreview(examId, f.figureId, preview);
    return el('li', { 'data-figure-id': f.figureId }, [preview, el('code', { text: line }),
      el('span', { className: 'hint', text: ` ${f.mediaType}, ${Math.ceil(f.sizeBytes / 1024)} KiB${f.width ? `, ${f.width} × ${f.height}` : ''}` })]);
  }));
}

async function showPreview(examId, figureId, img) {
  if (!figurePreviews.has(figureId)) {
    const res = await fetch(`/api/v1/exams/${enc(examId)}/figures/${figureId}`, { headers: { authorization: `Bearer ${token()}` } })
      .catch(() => null);
    if (!res?.ok) return;
    figurePreviews.set(figureId, URL.createObjectURL(await res.blob()));
  }
  img.src = figurePreviews.get(figureId);
}

$('d-figure-upload').addEventListener('click', async () => {
  const file = $('d-figure-file').files[0];
  if (!file) {
    problems(['Choose an image file first.']);
    return;
  }
  $('draft-problems').replaceChildren();
  try {
    const { json } = await apiFull('POST', `/api/v1/exams/${enc(draft.id)}/figures`, file);
    $('d-figure-file').value = '';
    say(json.removed?.length ? `Figure uploaded; taken out of the SVG: ${json.removed.join(', ')}.` : 'Figure uploaded.');
    await loadFigures(draft.id);
  } catch (err) {
    if (err.status === 415) problems(['A figure is a PNG, JPEG or SVG image.']);
    else if (err.status !== 401) problems([err.message]);
  }
});

async function openDraft(examId) {
  show('draft');
  draft.id = examId;
  $('draft-problems').replaceChildren();
  try {
    const { json, etag } = await apiFull('GET', `/api/v1/exams/${enc(examId)}`);
    if (json.state !== 'DRAFT' && json.state !== 'PUBLISHING') {
      location.hash = `#/exams/${enc(examId)}`; // published meanwhile: it is an exam now
      return;
    }
    showDraft(json, etag);
  } catch (err) {
    if (err.status === 404) {
      say('No such draft.');
      location.hash = '#/exams';
    } else if (err.status !== 401) say(`Could not load the draft: ${err.message}`);
    return;
  }
  $('draft-heading').focus();
}

function problems(list) {
  $('draft-problems').replaceChildren(...list.map((text) => el('li', { text })));
}

/** The form as the exam's members (null: leave it out); throws a message when a field cannot be read. */
function draftMembers() {
  const number = (id) => ($(id).value.trim() === '' ? null : Number($(id).value));
  const instant = (id) => ($(id).value ? new Date($(id).value).toISOString() : null);
  let questions = null;
  if ($('d-questions').value.trim() !== '') {
    try {
      questions = JSON.parse($('d-questions').value);
    } catch (err) {
      throw new Error(`Questions: not valid JSON (${err.message}).`);
    }
  }
  const minutes = number('d-duration');
  return {
    title: $('d-title').value.trim() || null,
    opensAt: instant('d-opens'),
    closesAt: instant('d-closes'),
    durationSeconds: minutes == null ? null : Math.round(minutes * 60),
    graceSeconds: number('d-grace'),
    questions,
  };
}

/** Saves what changed since the draft was read; true when the server holds the form. */
async function saveDraft() {
  let members;
  try {
    members = draftMembers();
  } catch (err) {
    problems([err.message]);
    return false;
  }
  const patch = {};
  for (const [k, v] of Object.entries(members)) {
    if (JSON.stringify(v) !== JSON.stringify(draft.saved[k] ?? null)) patch[k] = v; // null removes the member
  }
  if (Object.keys(patch).length === 0) return true;
  try {
    const { json, etag } = await apiFull('PATCH', `/api/v1/exams/${enc(draft.id)}`, patch,
      { 'content-type': 'application/merge-patch+json', 'if-match': draft.etag });
    showDraft(json, etag);
    say('Draft saved.');
    return true;
  } catch (err) {
    say(''); // an earlier "Draft saved." is not this save's
    if (err.status === 412) {
      problems(['Someone else changed this draft since you opened it. Your edits are still in the form: copy what you need, '
        + 'then reload the draft and make them again.']);
    } else if (err.status === 409) {
      problems(['This exam has been published meanwhile: it can no longer change.']);
    } else if (err.status !== 401) {
      problems([err.body?.field ? `${err.body.field}: ${err.message}` : err.message]);
    }
    return false;
  }
}

$('draft-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  $('draft-problems').replaceChildren();
  await saveDraft();
});

$('draft-reload').addEventListener('click', () => openDraft(draft.id));

$('draft-publish').addEventListener('click', async () => {
  $('draft-problems').replaceChildren();
  if (!(await saveDraft())) return;
  try {
    await apiFull('POST', `/api/v1/exams/${enc(draft.id)}/publish`, undefined, { 'if-match': draft.etag });
    location.hash = `#/exams/${enc(draft.id)}`;
    say('The exam is published.');
  } catch (err) {
    if (err.status === 400 && Array.isArray(err.body?.violations)) {
      problems(err.body.violations.map((v) => `${v.field}: ${v.message}`));
    } else if (err.status === 412) {
      problems(['Someone else changed this draft since you saved it: reload it and check it before publishing.']);
    } else if (err.status !== 401) {
      problems([err.body?.field ? `${err.body.field}: ${err.message}` : err.message]);
    }
  }
});

$('draft-delete').addEventListener('click', () => confirmAction({
  title: 'Delete this draft?',
  text: 'The draft and everything written in it are removed. A published exam is not affected.',
  confirm: 'Delete the draft',
  run: async () => {
    await api('DELETE', `/api/v1/exams/${enc(draft.id)}`);
    location.hash = '#/exams';
    return 'Draft deleted.';
  },
}));

// ---- one exam: counts, roster, feed, actions -----------------------------------------

const exam = {
  id: null,
  cursors: [null], // cursor of each page seen so far: Previous goes back one
  pageIndex: 0,
  next: null,
  rows: new Map(), // sessionId → {tr, cells, data}
  seenAlerts: new Set(),
  questions: [], // the exam's questions (prompts, points, types): answered count and marking
  serverOffset: 0, // server time − this clock, from the last roster page
};

async function openExam(examId) {
  show('exam');
  Object.assign(exam, { id: examId, cursors: [null], pageIndex: 0, next: null, seenAlerts: new Set() });
  exam.rows.clear();
  $('roster-body').replaceChildren();
  $('feed').replaceChildren();
  $('flagged').replaceChildren();
  $('counts').replaceChildren();
  $('exam-heading').textContent = 'Exam';
  try {
    const details = await api('GET', `/api/v1/exams/${enc(examId)}`);
    exam.questions = details.questions || [];
    $('exam-heading').textContent = details.title;
    showQuestions(examId, details.questions || []);
    document.title = `${details.title} — Proctor console`;
  } catch (err) {
    if (err.status === 404) {
      say('No such exam.');
      location.hash = '#/exams';
    } else if (err.status !== 401) say(`Could not load the exam: ${err.message}`);
    return;
  }
  $('exam-heading').focus();
  await refresh();
  live.start(examId);
}

let questionsShown = 0; // which showQuestions call is current: an older one's draw is dropped

/**
 * The exam's questions with their keys, in a <details>: drawn when opened. Closed for another
 * exam; for the same exam shown again (a reload of the view) it stays as the operator left it.
 */
function showQuestions(examId, questions) {
  const view = $('questions-view');
  const shown = ++questionsShown;
  if (view.dataset.examId !== examId) view.open = false;
  view.dataset.examId = examId;
  $('questions-list').replaceChildren();
  view.querySelector('summary').textContent = `${questions.some((q) => q.key !== undefined && q.key !== null) ? 'Questions and keys' : 'Questions'} (${questions.length})`;
  const draw = async () => {
    if (!view.open || $('questions-list').childElementCount) return;
    const markdown = questions.some((q) => q.format === 'markdown');
    const content = markdown ? await import('/content.js').catch(() => null) : null;
    if (shown !== questionsShown || !view.open || $('questions-list').childElementCount) return;
    const text = (tag, value, format) => {
      const node = el(tag, { className: 'question-text' });
      if (format === 'markdown' && content) content.showContent(node, value, format);
      else node.textContent = String(value ?? '');
      return node;
    };
    $('questions-list').replaceChildren(...questions.map((q) => {
      const item = el('li', { className: 'question-item', 'data-question-id': q.id });
      item.append(el('p', { className: 'question-meta', text: `${q.id} · ${q.type} · ${q.points} ${q.points === 1 ? 'point' : 'points'}${q.format === 'markdown' ? ' · Markdown' : ''}` }));
      item.append(text('div', q.prompt, q.format));
      if (Array.isArray(q.options)) item.append(el('ul', { className: 'question-options' }, q.options.map((o) => el('li', {}, [text('div', o, q.format)]))));
      if (q.key !== undefined && q.key !== null) item.append(el('p', { className: 'question-key', text: `Key: ${JSON.stringify(q.key)}` }));
      return item;
    }));
  };
  view.ontoggle = draw;
  draw();
}

let refreshing = false;
let refreshAgain = false;
async function refresh() {
  if (!exam.id || document.body.dataset.view !== 'exam') return; // e.g. after a draft's deletion, from another view
  if (refreshing) { // a slow round is not stacked on; a change pushed meanwhile gets one more round after it
    refreshAgain = true;
    return;
  }
  refreshing = true;
  try {
    await Promise.all([refreshMonitor(), refreshRoster()]);
    document.body.dataset.refreshedAt = String(Date.now());
  } catch (err) {
    if (err.status !== 401) say(`Update failed (${err.message}); retrying.`);
  } finally {
    refreshing = false;
    if (refreshAgain) {
      refreshAgain = false;
      refresh();
    }
  }
}

function rosterQuery() {
  const q = new URLSearchParams();
  if ($('f-status').value) q.set('status', $('f-status').value);
  if ($('f-online').value) q.set('online', $('f-online').value);
  if ($('f-flagged').checked) q.set('flagged', 'true');
  q.set('limit', $('f-limit').value);
  const cursor = exam.cursors[exam.pageIndex];
  if (cursor) q.set('after', cursor);
  return q.toString();
}

async function refreshMonitor() {
  const m = await api('GET', `/api/v1/exams/${enc(exam.id)}/monitor`);
  const counts = [
    ['State', m.pausedAt ? `${m.state}, paused since ${fmtClock(m.pausedAt)}` : m.state],
    ['Started', m.started], ['In progress', m.inProgress], ['Online', m.online], ['Paused', m.paused],
    ['Submitted', m.submitted], ['Flagged', m.flagged.length],
  ];
  $('counts').replaceChildren(...counts.flatMap(([k, v]) => [el('dt', { text: k }), el('dd', { text: String(v), 'data-count': k })]));
  $('exam-state').textContent = m.pausedAt ? 'Exam paused' : m.state;
  document.body.dataset.examPaused = m.pausedAt ? 'true' : 'false';
  $('exam-pause').disabled = Boolean(m.pausedAt);
  $('exam-resume').disabled = !m.pausedAt;

  // the monitor names sessions; the roster rows on screen know their candidates
  $('flagged').replaceChildren(...m.flagged.map((f) => el('li', {}, [
    el('span', { className: 'mono', text: exam.rows.get(f.sessionId)?.data.candidateId || f.sessionId.slice(0, 8) }),
    ' ',
    f.flags.map(flagText).join('; '),
  ])));
  if (!m.flagged.length) $('flagged').append(el('li', { className: 'hint', text: 'None.' }));

  // newest first; a new entry is marked so that it can be spotted among the old ones
  const fresh = exam.seenAlerts.size > 0;
  $('feed').replaceChildren(...m.recentAlerts.map((a) => feedItem(a, fresh)).filter(Boolean));
  for (const a of m.recentAlerts) exam.seenAlerts.add(alertKey(a));
  if (!m.recentAlerts.length) $('feed').append(el('li', { className: 'hint', text: 'No events yet.' }));
}

function flagText(flag) {
  const why = flag.offlineSeconds != null ? `offline ${fmtDuration(flag.offlineSeconds * 1000)} near the deadline`
    : `${(flag.events || []).length} events`;
  return `${flag.rule} (${why}, ${fmtClock(flag.raisedAt)})`;
}

function alertKey(a) {
  return a.streamId || `${a.sessionId}:${a.eventId}:${a.at}`;
}

function feedItem(a, markNew) {
  const key = alertKey(a);
  const who = a.candidateId || (a.sessionId ? a.sessionId.slice(0, 8) : '');
  const length = a.length ? ` (${a.length} characters)` : '';
  const text = `${fmtClock(a.receivedAt || a.at)} ${a.type || 'EVENT'} — ${who}${a.detail ? `: ${a.detail}` : ''}${length}`;
  return el('li', { className: markNew && !exam.seenAlerts.has(key) ? 'fresh' : '', 'data-type': a.type || '', text });
}

/** Pushed events, newest first on top; the list keeps the newest FEED_SIZE. */
function addEvents(events) {
  const feed = $('feed');
  feed.querySelector('.hint')?.remove();
  for (const a of [...events].sort((x, y) => (alertKey(x) < alertKey(y) ? -1 : 1))) {
    if (exam.seenAlerts.has(alertKey(a))) continue;
    feed.prepend(feedItem(a, true));
    exam.seenAlerts.add(alertKey(a));
  }
  while (feed.children.length > FEED_SIZE) feed.lastElementChild.remove();
}

const COLUMNS = ['candidate', 'status', 'presence', 'seen', 'left', 'answered', 'saved', 'flags', 'actions'];

async function refreshRoster() {
  const page = await api('GET', `/api/v1/exams/${enc(exam.id)}/sessions?${rosterQuery()}`);
  exam.next = page.nextCursor;
  if (page.serverTime) exam.serverOffset = Date.parse(page.serverTime) - Date.now();
  const body = $('roster-body');
  const keep = new Set();
  page.sessions.forEach((s, i) => {
    keep.add(s.sessionId);
    let row = exam.rows.get(s.sessionId);
    if (!row) row = createRow(s);
    updateRow(row, s);
    // rows are moved only when out of place, so a focused button keeps its focus across polls
    if (body.children[i] !== row.tr) body.insertBefore(row.tr, body.children[i] || null);
  });
  for (const [id, row] of exam.rows) {
    if (!keep.has(id)) {
      row.tr.remove();
      exam.rows.delete(id);
    }
  }
  const first = exam.pageIndex * Number($('f-limit').value);
  $('roster-summary').textContent = page.sessions.length
    ? `Sessions ${first + 1}–${first + page.sessions.length}${page.nextCursor ? ', more on the next page' : ''}`
    : 'No sessions match these filters.';
  $('page-label').textContent = `Page ${exam.pageIndex + 1}`;
  $('page-prev').disabled = exam.pageIndex === 0;
  $('page-first').disabled = exam.pageIndex === 0;
  $('page-next').disabled = !page.nextCursor;
}

function createRow(s) {
  const cells = Object.fromEntries(COLUMNS.map((c) => [c, el(c === 'candidate' ? 'th' : 'td', c === 'candidate' ? { scope: 'row' } : {})]));
  const tr = el('tr', { 'data-session-id': s.sessionId }, COLUMNS.map((c) => cells[c]));
  const label = (verb) => `${verb} ${s.candidateId}`;
  const buttons = {
    warn: el('button', { type: 'button', text: 'Warn', 'aria-label': label('Warn') }),
    extend: el('button', { type: 'button', text: 'Extend', 'aria-label': label('Extend the time of') }),
    pause: el('button', { type: 'button', text: 'Pause', 'aria-label': label('Pause') }),
    resume: el('button', { type: 'button', text: 'Resume', 'aria-label': label('Resume') }),
    submit: el('button', { type: 'button', text: 'Force submit', className: 'danger', 'aria-label': label('Force-submit') }),
    results: el('button', { type: 'button', text: 'Results', 'aria-label': label('Results of') }),
  };
  cells.actions.className = 'actions';
  cells.actions.append(el('div', {}, Object.values(buttons))); // the cell stays a table cell; its content is the flex box
  const row = { tr, cells, buttons, data: s };
  buttons.warn.addEventListener('click', () => actWarn(row.data));
  buttons.extend.addEventListener('click', () => actExtend(row.data));
  buttons.pause.addEventListener('click', () => actSession(row.data, 'pause'));
  buttons.resume.addEventListener('click', () => actSession(row.data, 'resume'));
  buttons.submit.addEventListener('click', () => actForceSubmit(row.data));
  buttons.results.addEventListener('click', () => showResults(row.data));
  exam.rows.set(s.sessionId, row);
  return row;
}

function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

/** Time left now: standing still while paused, running from the deadline otherwise (no server round). */
function remainingOf(s) {
  if (s.status === 'SUBMITTED') return null;
  if (s.status === 'PAUSED') return s.pausedAt ? Date.parse(s.deadline) - Date.parse(s.pausedAt) : s.remainingMs;
  return Math.max(0, Date.parse(s.deadline) - (Date.now() + exam.serverOffset));
}

function updateRow(row, s) {
  row.data = s;
  const { cells, buttons, tr } = row;
  setText(cells.candidate, s.candidateId);
  setText(cells.status, STATUS_TEXT[s.status] || s.status);
  setText(cells.presence, s.online ? 'online' : 'offline');
  setText(cells.seen, s.lastSeenAt ? fmtClock(s.lastSeenAt) : '—');
  updateLeft(row);
  setText(cells.answered, s.answered == null ? '—' : `${s.answered} / ${exam.questions.length || '?'}`);
  setText(cells.saved, s.lastSavedAt ? fmtClock(s.lastSavedAt) : '—');
  setText(cells.flags, s.flags.length ? s.flags.map((f) => f.rule).join(', ') : '—');
  tr.dataset.status = s.status;
  tr.dataset.online = String(s.online);
  tr.dataset.flags = s.flags.map((f) => f.rule).join(' ');
  const open = s.status !== 'SUBMITTED';
  buttons.warn.disabled = !open;
  buttons.extend.disabled = !open;
  buttons.pause.hidden = s.status !== 'IN_PROGRESS';
  buttons.resume.hidden = s.status !== 'PAUSED';
  buttons.submit.disabled = !open;
  buttons.results.hidden = !s.paperId;
  if (!open) {
    buttons.pause.hidden = true;
    buttons.resume.hidden = true;
  }
}

function updateLeft(row) {
  const s = row.data;
  setText(row.cells.left, s.status === 'SUBMITTED' ? '—' : `${fmtDuration(remainingOf(s))}${s.status === 'PAUSED' ? ' (stopped)' : ''}`);
}

// the clocks on screen run here; the server is asked only when something changes
setInterval(() => {
  for (const row of exam.rows.values()) updateLeft(row);
}, 1000);

function resetRosterPages() {
  exam.cursors = [null];
  exam.pageIndex = 0;
  refreshRoster().catch((err) => err.status !== 401 && say(`Could not load the roster: ${err.message}`));
}

for (const id of ['f-status', 'f-online', 'f-flagged', 'f-limit']) $(id).addEventListener('change', resetRosterPages);
$('filters').addEventListener('submit', (e) => e.preventDefault());
$('page-next').addEventListener('click', () => {
  if (!exam.next) return;
  exam.cursors[exam.pageIndex + 1] = exam.next;
  exam.pageIndex += 1;
  refreshRoster().then(() => $('roster-table').scrollIntoView?.({ block: 'start' }));
});
$('page-prev').addEventListener('click', () => {
  if (exam.pageIndex === 0) return;
  exam.pageIndex -= 1;
  refreshRoster();
});
$('page-first').addEventListener('click', resetRosterPages);

// ---- the exam's watch socket (docs/api.md §3.9) -----------------------------------------

/**
 * One socket per open exam. On WELCOME the page is read once (what changed before it opened),
 * then only what the server pushes changes the screen. While it is down the console polls
 * every 2 s and tries again with backoff and jitter; 4401 means the token is no longer good.
 */
const live = {
  socket: null,
  examId: null,
  attempt: 0,
  retry: null,
  settle: null,
  answers: null,

  start(examId) {
    this.stop();
    this.examId = examId;
    this.attempt = 0;
    this.open();
  },

  stop() {
    this.examId = null;
    clearTimeout(this.retry);
    clearTimeout(this.settle);
    clearInterval(this.answers);
    this.settle = null;
    this.answers = null;
    if (this.socket) {
      const socket = this.socket;
      this.socket = null;
      socket.onclose = null;
      socket.close(1000);
    }
    setLiveState('off');
  },

  open() {
    const examId = this.examId;
    if (!examId || !token()) return;
    setLiveState('connecting');
    let socket;
    try {
      const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
      socket = new WebSocket(`${scheme}://${location.host}/api/v1/exams/${enc(examId)}/live`, ['exam-watch', token()]);
    } catch {
      this.down();
      return;
    }
    this.socket = socket;
    socket.onmessage = (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      if (this.socket === socket) onPush(message);
    };
    socket.onclose = (event) => {
      if (this.socket !== socket) return;
      this.socket = null;
      if (event.code === 4401) {
        signOut('Your operator token was refused (expired or not an operator token). Sign in again.');
        return;
      }
      if (event.code === 4404) return say('No such exam.');
      this.down();
    };
  },

  down() {
    clearInterval(this.answers);
    this.answers = null;
    setLiveState('down');
    startFallbackPolling();
    const delay = Math.min(30_000, 1000 * 2 ** this.attempt) * (0.5 + Math.random() / 2);
    this.attempt += 1;
    this.retry = setTimeout(() => this.open(), delay);
  },

  /** A change the screen cannot apply by itself (a new row, a filter, the counts): the page is read again, once per burst. */
  settleSoon() {
    if (this.settle) return;
    this.settle = setTimeout(() => {
      this.settle = null;
      refresh();
    }, SETTLE_MS);
  },
};

function setLiveState(state) {
  document.body.dataset.live = state;
  const text = {
    open: 'Live: changes appear as they happen.',
    connecting: 'Connecting the live updates…',
    down: 'Live updates are down: refreshed every 2 s meanwhile.',
    off: '',
  }[state];
  setText($('live-state'), text);
}

function onPush(m) {
  document.body.dataset.pushed = String(Number(document.body.dataset.pushed || 0) + 1);
  switch (m.type) {
    case 'WELCOME':
      live.attempt = 0;
      if (poller) clearInterval(poller);
      poller = null;
      setLiveState('open');
      refresh(); // what changed before the socket opened
      clearInterval(live.answers);
      live.answers = setInterval(() => refreshRoster().catch(() => {}), ANSWERS_MS);
      break;
    case 'SESSION': {
      const row = exam.rows.get(m.sessionId);
      if (row) updateRow(row, { ...row.data, ...m, remainingMs: row.data.remainingMs });
      live.settleSoon(); // counts, filters and new sessions
      break;
    }
    case 'PRESENCE': {
      for (const { sessionId, lastSeenAt } of m.online) {
        const row = exam.rows.get(sessionId);
        if (row) updateRow(row, { ...row.data, online: true, lastSeenAt });
      }
      for (const sessionId of m.offline) {
        const row = exam.rows.get(sessionId);
        if (row) updateRow(row, { ...row.data, online: false });
      }
      const online = document.querySelector('#counts dd[data-count="Online"]');
      if (online) setText(online, String(m.onlineCount));
      if ($('f-online').value) live.settleSoon(); // a row may leave or join the filtered page
      break;
    }
    case 'EVENTS':
      addEvents(m.events || []);
      break;
    case 'FLAG': {
      const row = exam.rows.get(m.sessionId);
      if (row && !row.data.flags.some((f) => f.rule === m.flag.rule)) updateRow(row, { ...row.data, flags: [...row.data.flags, m.flag] });
      document.body.dataset.lastFlag = m.flag.rule;
      say(`Flag raised: ${m.flag.rule} on ${m.candidateId || m.sessionId.slice(0, 8)}.`);
      live.settleSoon(); // the flagged list and count
      break;
    }
    case 'EXAM':
      live.settleSoon();
      break;
    default:
      break;
  }
}

// ---- results and essay marks (grading-saga, per paper) ------------------------------------

const RESULT_TEXT = {
  PENDING: 'being graded (essays wait for marks)',
  GRADED: 'graded',
  NEEDS_REVIEW: 'needs review (the grading was undone)',
  FAILED: 'grading failed (an operator may retry it)',
};

function answerText(value) {
  if (value == null) return '—';
  return Array.isArray(value) ? value.join(', ') : String(value);
}

/** The session's paper and its result: score and marks once graded, and a form for the essays' marks. */
async function showResults(s) {
  const dialog = $('results');
  const opener = document.activeElement;
  $('results-title').textContent = `Results of ${s.candidateId}`;
  $('results-body').replaceChildren(el('p', { text: 'Loading…' }));
  $('results-error').textContent = '';
  dialog.addEventListener('close', () => {
    if (opener && document.contains(opener)) opener.focus();
  }, { once: true });
  dialog.showModal();
  $('results-close').focus();
  await renderResults(s);
}

async function renderResults(s) {
  let result = null;
  let paper = null;
  try {
    [result, paper] = await Promise.all([
      api('GET', `/api/v1/results/${enc(s.paperId)}`).catch((err) => {
        if (err.status === 404) return null; // grading has not started yet
        throw err;
      }),
      api('GET', `/api/v1/submissions/${enc(s.paperId)}`).catch(() => null),
    ]);
  } catch (err) {
    if (err.status !== 401) $('results-error').textContent = `Could not load the result: ${err.message} (${err.code})`;
    return;
  }
  const body = [];
  const status = result ? (RESULT_TEXT[result.status] || result.status) : 'not graded yet (grading has not started)';
  body.push(el('p', { id: 'result-status', 'data-status': result?.status || 'NONE', text: `Paper ${s.paperId}: ${status}.` }));
  if (result?.status === 'GRADED') body.push(el('p', { className: 'score', text: `Score ${result.score} of ${result.maxScore}` }));
  if (result?.reason) body.push(el('p', { className: 'hint', text: `Reason: ${result.reason}` }));
  const marks = new Map((result?.marks || []).map((m) => [m.questionId, m]));
  const answers = paper?.answers || {};
  const rows = exam.questions.map((q) => el('tr', {}, [
    el('th', { scope: 'row', text: q.id }),
    el('td', { text: q.type }),
    el('td', { className: 'answer', text: answerText(answers[q.id]?.value) }),
    el('td', { text: marks.has(q.id) ? `${marks.get(q.id).score} / ${q.points}` : `— / ${q.points}` }),
  ]));
  body.push(el('table', { className: 'grid' }, [
    el('caption', { className: 'caption', text: 'Answers and marks per question' }),
    el('thead', {}, [el('tr', {}, ['Question', 'Type', 'Answer', 'Mark'].map((h) => el('th', { scope: 'col', text: h })))]),
    el('tbody', {}, rows),
  ]));
  const essays = exam.questions.filter((q) => q.type === 'ESSAY');
  if (essays.length && result?.status !== 'GRADED') body.push(markingForm(s, essays, answers));
  $('results-body').replaceChildren(...body);
}

function markingForm(s, essays, answers) {
  const form = el('form', { id: 'marks-form', className: 'marks' }, [el('h3', { text: 'Mark the essays' })]);
  for (const q of essays) {
    const id = `mark-${q.id}`;
    form.append(el('div', { className: 'essay' }, [
      el('p', { className: 'prompt', text: `${q.id}: ${q.prompt || ''}` }),
      el('blockquote', { text: answerText(answers[q.id]?.value) }),
      el('label', { for: id, text: `Mark for ${q.id} (0–${q.points})` }),
      ' ',
      el('input', { id, name: q.id, type: 'number', min: 0, max: q.points, step: 'any', required: true }),
    ]));
  }
  const send = el('button', { type: 'submit', text: 'Send the marks' });
  form.append(el('p', {}, [send]));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (!form.reportValidity()) return;
    const marks = Object.fromEntries(essays.map((q) => [q.id, Number(form.elements[q.id].value)]));
    send.disabled = true;
    $('results-error').textContent = '';
    try {
      await api('POST', `/api/v1/results/${enc(s.paperId)}/marks`, { marks });
      say(`Marks sent for ${s.candidateId}; grading continues.`);
      $('results-error').textContent = '';
      form.replaceWith(el('p', { id: 'marks-sent', role: 'status', text: 'Marks sent: the grading goes on (reload to see the result).' }));
    } catch (err) {
      send.disabled = false;
      if (err.status === 409) $('results-error').textContent = 'This paper is not waiting for marks: its grading has not reached the essays yet, or is over.';
      else if (err.status !== 401) $('results-error').textContent = `Refused: ${err.message} (${err.code})`;
    }
  });
  return form;
}

$('results-close').addEventListener('click', () => $('results').close());
$('results-reload').addEventListener('click', () => {
  const row = [...exam.rows.values()].find((r) => $('results-title').textContent === `Results of ${r.data.candidateId}`);
  if (row) renderResults(row.data);
});

// ---- confirmations --------------------------------------------------------------------

/**
 * Every action goes through this dialog: it names what will happen to whom, and nothing is
 * sent before Confirm. `run(form)` performs it; a refusal is shown in the dialog.
 */
function confirmAction({ title, text, fields = [], confirm, run }) {
  const dialog = $('confirm');
  const opener = document.activeElement;
  $('confirm-title').textContent = title;
  $('confirm-text').textContent = text;
  $('confirm-error').textContent = '';
  $('confirm-fields').replaceChildren(...fields);
  $('confirm-ok').textContent = confirm;
  $('confirm-ok').disabled = false;
  const form = $('confirm-form');
  const onSubmit = async (event) => {
    event.preventDefault();
    if (!form.reportValidity()) return;
    $('confirm-ok').disabled = true;
    try {
      const message = await run(form);
      close();
      say(message);
      refresh();
    } catch (err) {
      $('confirm-ok').disabled = false;
      if (err.status !== 401) $('confirm-error').textContent = `Refused: ${err.message} (${err.code})`;
      else close();
    }
  };
  const close = () => dialog.open && dialog.close();
  // however it closes (confirm, Cancel, Escape), this action is forgotten and focus goes back
  dialog.addEventListener('close', () => {
    form.removeEventListener('submit', onSubmit);
    if (opener && document.contains(opener)) opener.focus();
  }, { once: true });
  form.addEventListener('submit', onSubmit);
  $('confirm-cancel').onclick = close;
  dialog.showModal();
  (fields.length ? dialog.querySelector('input, textarea') : $('confirm-cancel')).focus();
}

function field(id, labelText, input) {
  input.id = id;
  input.name = id;
  return el('p', {}, [el('label', { for: id, text: labelText }), el('br'), input]);
}

function actWarn(s) {
  confirmAction({
    title: `Warn ${s.candidateId}`,
    text: 'The message is shown on the candidate’s screen at once.',
    fields: [field('warn-message', 'Message', el('textarea', { rows: 3, cols: 40, required: true, maxLength: 500, value: 'Please keep your eyes on your own screen.' }))],
    confirm: 'Send the warning',
    run: async (form) => {
      await api('POST', `/api/v1/sessions/${enc(s.sessionId)}/warn`, { message: form.elements['warn-message'].value.trim() });
      return `Warning sent to ${s.candidateId}.`;
    },
  });
}

function actExtend(s) {
  confirmAction({
    title: `Extend the time of ${s.candidateId}`,
    text: `Time left now: ${fmtDuration(s.remainingMs)}. The extension moves this session’s deadline.`,
    fields: [
      field('extend-minutes', 'Minutes to add (1–1440)', el('input', { type: 'number', min: 1, max: 1440, step: 1, required: true, value: 10 })),
      field('extend-reason', 'Reason (audited)', el('input', { type: 'text', required: true, maxLength: 500, size: 40 })),
    ],
    confirm: 'Extend',
    run: async (form) => {
      const minutes = Number(form.elements['extend-minutes'].value);
      // one key per confirmation: a retried request (lost response) extends once
      const key = crypto.randomUUID();
      const view = await api('POST', `/api/v1/sessions/${enc(s.sessionId)}/extend`,
        { seconds: minutes * 60, reason: form.elements['extend-reason'].value.trim() }, { 'idempotency-key': key });
      return `${s.candidateId}: deadline now ${fmtTime(view.deadline)}.`;
    },
  });
}

function actSession(s, verb) {
  confirmAction({
    title: `${verb === 'pause' ? 'Pause' : 'Resume'} ${s.candidateId}`,
    text: verb === 'pause'
      ? 'The candidate’s clock stops and the page shows the pause; answers are still saved.'
      : 'The candidate’s clock runs again; the deadline moves by the time paused.',
    confirm: verb === 'pause' ? 'Pause the session' : 'Resume the session',
    run: async () => {
      const view = await api('POST', `/api/v1/sessions/${enc(s.sessionId)}/${verb}`);
      return `${s.candidateId} is ${STATUS_TEXT[view.status] || view.status}.`;
    },
  });
}

function actForceSubmit(s) {
  confirmAction({
    title: `Force-submit ${s.candidateId}`,
    text: 'This ends the candidate’s exam now, with the answers saved so far. It cannot be undone.',
    confirm: 'Force-submit now',
    run: async () => {
      const view = await api('POST', `/api/v1/sessions/${enc(s.sessionId)}/force-submit`);
      return `${s.candidateId} submitted: paper ${view.paperId}.`;
    },
  });
}

function actExam(verb) {
  confirmAction({
    title: verb === 'pause' ? 'Pause the whole exam' : 'Resume the whole exam',
    text: verb === 'pause'
      ? 'Every running session of this exam is paused (and any started meanwhile): clocks stop, pages show the pause.'
      : 'Every session the exam’s pause stopped runs again (one paused on its own stays paused).',
    confirm: verb === 'pause' ? 'Pause every session' : 'Resume every session',
    run: async () => {
      const r = await api('POST', `/api/v1/exams/${enc(exam.id)}/${verb}`);
      return `Exam ${r.paused ? 'paused' : 'resumed'}: ${r.sessionsChanged} sessions changed.`;
    },
  });
}

function actExamExtend() {
  confirmAction({
    title: 'Extend the whole exam',
    text: 'Every open session of this exam gets the minutes (sessions started later do not); each page shows its new deadline.',
    fields: [
      field('exam-extend-minutes', 'Minutes to add (1–1440)', el('input', { type: 'number', min: 1, max: 1440, step: 1, required: true, value: 10 })),
      field('exam-extend-reason', 'Reason (audited, optional)', el('input', { type: 'text', maxLength: 500, size: 40 })),
    ],
    confirm: 'Extend every session',
    run: async (form) => {
      const minutes = Number(form.elements['exam-extend-minutes'].value);
      const reason = form.elements['exam-extend-reason'].value.trim();
      // one key per confirmation: a retried request (lost response) extends no session twice
      const key = crypto.randomUUID();
      const r = await api('POST', `/api/v1/exams/${enc(exam.id)}/extend`, reason ? { minutes, reason } : { minutes },
        { 'idempotency-key': key });
      return `Exam extended by ${r.minutes} min: ${r.sessionsExtended} sessions.`;
    },
  });
}

function actAnnounce() {
  confirmAction({
    title: 'Announce to every candidate',
    text: 'Shown at once on the page of every candidate of this exam whose session is open (as text).',
    fields: [field('announce-text', 'Announcement', el('textarea', { rows: 3, cols: 40, required: true, maxLength: 1000 }))],
    confirm: 'Announce',
    run: async (form) => {
      // one key per confirmation: a retried request posts once
      const key = crypto.randomUUID();
      const r = await api('POST', `/api/v1/exams/${enc(exam.id)}/announcements`,
        { text: form.elements['announce-text'].value.trim() }, { 'idempotency-key': key });
      return `Announced to ${r.sessionsReached} sessions.`;
    },
  });
}

$('exam-pause').addEventListener('click', () => actExam('pause'));
$('exam-announce').addEventListener('click', actAnnounce);
$('exam-duplicate').addEventListener('click', async () => {
  try {
    const { json } = await apiFull('POST', `/api/v1/exams/${enc(exam.id)}/duplicate`, undefined, { 'idempotency-key': crypto.randomUUID() });
    location.hash = `#/drafts/${enc(json.examId)}`;
  } catch (err) {
    if (err.status !== 401) say(`Could not duplicate the exam: ${err.message}`);
  }
});
$('exam-extend').addEventListener('click', actExamExtend);
$('exam-resume').addEventListener('click', () => actExam('resume'));

/** Where staff sign in (server.mjs's /console/config.json); back from the provider, the code is exchanged first. */
async function boot() {
  let message = '';
  try {
    const res = await fetch('/console/config.json', { cache: 'no-store' });
    const config = res.ok ? await res.json() : {};
    if (config.issuer) {
      oidc = createOidc(config);
      oidc.onTokens((t) => {
        if (!t) signOut('Your session with the identity provider ended. Sign in again.');
      });
      const hash = await oidc.completeSignIn();
      if (hash && location.hash !== hash) location.hash = hash;
    }
  } catch (err) {
    message = `Cannot sign in: ${err.message}`;
  }
  window.addEventListener('hashchange', route);
  document.body.dataset.booted = 'true';
  route();
  if (message) $('login-error').textContent = message;
}

boot();
