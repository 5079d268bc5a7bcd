/**
 * The reference exam page. Plain-text questions are shown with textContent (never innerHTML),
 * so their text cannot inject markup; Markdown questions (`format: "markdown"`) go through
 * content.js (markdown-it without raw HTML, DOMPurify, KaTeX, highlight.js), loaded only when an
 * exam has one. The SDK does the hard part: answers and review flags are on this device before
 * any request, sync when they can, and submit exactly once.
 */
import { ExamClient, optionsInOrder } from '/sdk/index.js';
import { Navigator, summarize, isAnswerValue } from '/navigator.js';

const $ = (id) => document.getElementById(id);
const el = (tag, props = {}, children = []) => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === 'text') node.textContent = v;
    else if (k.startsWith('aria-') || k.startsWith('data-') || k === 'for' || k === 'role') node.setAttribute(k, v);
    else node[k] = v;
  }
  for (const c of children) node.append(c);
  return node;
};

const ERROR_TEXT = {
  SESSION_TAKEN_OVER: 'This exam was opened on another device. The answers on this device are kept here. To continue on this device, sign in again.',
  AUTH_REQUIRED: 'Your sign-in has expired. Your answers are kept on this device; sign in again to continue.',
  OPEN_IN_ANOTHER_TAB: 'This exam is open in another tab of this browser. Answer there, or use this tab instead.',
  SESSION_CLOSED: 'The exam is closed: no more changes are accepted.',
};
// One line for the status banner; the alert below it carries the full explanation and the action.
const STATUS_ERROR_TEXT = {
  SESSION_TAKEN_OVER: 'Paused: this exam is open on another device.',
  AUTH_REQUIRED: 'Paused: sign in again to keep saving. Your answers are on this device.',
  OPEN_IN_ANOTHER_TAB: 'Paused: this exam is open in another tab.',
  SESSION_CLOSED: 'The exam is closed.',
};
// The live channel, shown small in the header: answers never depend on it, so it must not alarm.
const LIVE_TEXT = {
  open: 'Live',
  connecting: 'Connecting…',
  closed: 'Reconnecting…',
  fallback: 'Updates every 30 s',
};
const LOGIN_ERRORS = {
  401: 'Those details were not recognised. Check the exam ID, your candidate ID and the access code.',
  429: 'Too many attempts. Please wait a minute and try again.',
  EXAM_NOT_OPEN: 'This exam is not open right now.',
  NETWORK_ERROR: 'The exam server cannot be reached. Check your connection and try again.',
  TIMEOUT: 'The exam server cannot be reached. Check your connection and try again.',
};

let client = null;
let content = null; // content.js once an exam has a Markdown question
const inputsByQuestion = new Map(); // questionId → {fieldset, flag, read(), write(value)}
const navigator_ = new Navigator({ list: $('navigator-list'), progress: $('progress'), jump: jumpTo });
let timerHandle = null;
let announced = new Set();

function show(section) {
  for (const id of ['loading', 'login', 'exam', 'done']) $(id).hidden = id !== section;
  document.body.dataset.view = section;
}

/** A proctor paused the session or its exam: the timer stands still (the SDK's remainingMs), answers still save. */
function showPaused(paused) {
  $('paused').hidden = !paused;
  document.body.dataset.paused = paused ? 'true' : 'false';
}

function showAlert(text, action) {
  $('alert').hidden = !text;
  $('alert-text').textContent = text || '';
  const button = $('alert-action');
  button.hidden = !action;
  if (action) {
    button.textContent = action.label;
    button.onclick = action.run;
  }
}

/** An invigilators' announcement, newest first, each once (a retried post delivers it again under its id). */
const announcementIds = new Set();
function showAnnouncement(command) {
  const id = String(command.announcementId ?? '');
  if (!id || announcementIds.has(id)) return;
  announcementIds.add(id);
  const item = document.createElement('li');
  item.textContent = String(command.text); // text, never HTML
  $('announcement-list').prepend(item);
  $('announcements').hidden = false;
}

// ------------------------------------------------------------------ sign in

function showLogin(prefill = {}) {
  const params = new URLSearchParams(location.search);
  for (const name of ['examId', 'candidateId']) {
    const value = prefill[name] ?? params.get(name);
    if (value) $(name).value = value;
  }
  $('accessCode').value = '';
  show('login');
  ($('examId').value ? ($('candidateId').value ? $('accessCode') : $('candidateId')) : $('examId')).focus();
}

$('login-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const button = $('login-button');
  button.disabled = true;
  $('login-error').textContent = '';
  try {
    const credentials = { examId: $('examId').value.trim(), candidateId: $('candidateId').value.trim(), accessCode: $('accessCode').value.trim() };
    const previous = client;
    client = null;
    await previous?.close();
    await openExam(await ExamClient.start(credentials));
  } catch (err) {
    $('login-error').textContent = LOGIN_ERRORS[err.code] || LOGIN_ERRORS[err.status] || `Could not start the exam (${err.code || err.message}).`;
  } finally {
    button.disabled = false;
  }
});

// ------------------------------------------------------------------ questions

/** A question's text: rendered Markdown when the question says so and content.js is here, else the text itself. */
function textNode(tag, props, text, format) {
  const node = el(tag, props);
  if (format === 'markdown' && content) content.showContent(node, text, format, { figure: (id) => client.figure(id) });
  else node.textContent = String(text ?? '');
  return node;
}

function renderQuestions() {
  const form = $('questions');
  form.replaceChildren();
  inputsByQuestion.clear();
  client.questions.forEach((q, index) => {
    const n = index + 1;
    const promptId = `prompt-${n}`;
    const legendText = `Question ${n}${Number.isFinite(q.points) ? ` (${q.points} ${q.points === 1 ? 'point' : 'points'})` : ''}`;
    const fieldset = el('fieldset', { className: 'question', id: `question-${n}`, tabIndex: -1, 'aria-describedby': promptId, 'data-question-id': q.id, 'data-type': q.type });
    const markdown = q.format === 'markdown';
    const flag = el('button', { type: 'button', className: 'flag', text: 'Flag for review', 'aria-pressed': 'false', 'aria-label': `Flag question ${n} for review` });
    fieldset.append(
      el('legend', { text: legendText }),
      el('div', { className: 'question-tools' }, [flag]),
      textNode(markdown ? 'div' : 'p', { className: 'prompt', id: promptId }, q.prompt, q.format),
    );
    const control = controlFor(q, n, promptId);
    fieldset.append(...control.nodes);
    const error = el('p', { className: 'error', id: `error-${n}`, 'aria-live': 'polite' });
    fieldset.append(error);
    control.error = error;
    control.fieldset = fieldset;
    control.flag = flag;
    inputsByQuestion.set(q.id, control);
    form.append(fieldset);
    control.write(client.answer(q.id));
    control.onChange((value) => save(q.id, value, control));
    flag.addEventListener('click', () => toggleFlag(q.id, n, control));
    fieldset.addEventListener('focusin', () => navigator_.setCurrent(n));
  });
  navigator_.render(client.questions);
  showFlags();
}

function choiceList(name, items, type, format) {
  const inputs = [];
  const nodes = items.map(({ label, value }, i) => {
    const input = el('input', { type, name, id: `${name}-${i}` });
    input.dataset.value = JSON.stringify(value);
    inputs.push(input);
    const text = format === 'markdown' && content ? textNode('span', { className: 'option' }, label, format) : document.createTextNode(` ${label}`);
    return el('label', { className: 'choice', for: input.id }, [input, text]);
  });
  return { inputs, nodes };
}

function controlFor(q, n, promptId) {
  const name = `answer-${n}`;
  // shown in the candidate's optionOrder (docs/api.md §3.1); each answers with its own text as ever
  const options = optionsInOrder(q).map(({ option }) => String(option));
  switch (q.type) {
    case 'SINGLE':
    case 'TRUE_FALSE': {
      const items = q.type === 'SINGLE' ? options.map((o) => ({ label: o, value: o })) : [{ label: 'True', value: true }, { label: 'False', value: false }];
      const { inputs, nodes } = choiceList(name, items, 'radio', q.format);
      const clear = el('button', { type: 'button', className: 'link', text: 'Clear my answer' });
      clear.setAttribute('aria-label', `Clear the answer to question ${n}`);
      return {
        nodes: [...nodes, clear],
        controls: [...inputs, clear],
        read: () => {
          const chosen = inputs.find((i) => i.checked);
          return chosen ? JSON.parse(chosen.dataset.value) : null;
        },
        write: (v) => inputs.forEach((i) => (i.checked = v !== null && i.dataset.value === JSON.stringify(v))),
        onChange(fn) {
          inputs.forEach((i) => i.addEventListener('change', () => fn(this.read())));
          clear.addEventListener('click', () => {
            this.write(null);
            fn(null);
          });
        },
      };
    }
    case 'MULTIPLE': {
      const { inputs, nodes } = choiceList(name, options.map((o) => ({ label: o, value: o })), 'checkbox', q.format);
      return {
        nodes,
        controls: inputs,
        read: () => {
          const chosen = inputs.filter((i) => i.checked).map((i) => JSON.parse(i.dataset.value));
          return chosen.length ? chosen : null;
        },
        write: (v) => inputs.forEach((i) => (i.checked = Array.isArray(v) && v.includes(JSON.parse(i.dataset.value)))),
        onChange(fn) {
          inputs.forEach((i) => i.addEventListener('change', () => fn(this.read())));
        },
      };
    }
    case 'NUMERIC': {
      const input = el('input', { type: 'text', id: name, name, inputMode: 'decimal', autocomplete: 'off', 'aria-labelledby': promptId });
      return {
        nodes: [input],
        controls: [input],
        read: () => {
          const text = input.value.trim().replace(',', '.');
          if (text === '') return null;
          const number = Number(text);
          return /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text) && Number.isFinite(number) ? number : undefined;
        },
        write: (v) => {
          if (document.activeElement !== input || input.value.trim() === '') input.value = v === null || v === undefined ? '' : String(v);
        },
        onChange(fn) {
          input.addEventListener('input', () => fn(this.read()));
        },
      };
    }
    case 'FILL':
    case 'ESSAY':
    default: {
      const input = q.type === 'ESSAY'
        ? el('textarea', { id: name, name, rows: 8, 'aria-labelledby': promptId, spellcheck: true })
        : el('input', { type: 'text', id: name, name, autocomplete: 'off', 'aria-labelledby': promptId, spellcheck: false });
      return {
        nodes: [input],
        controls: [input],
        read: () => (input.value === '' ? null : input.value),
        write: (v) => {
          if (document.activeElement !== input) input.value = typeof v === 'string' ? v : '';
        },
        onChange(fn) {
          input.addEventListener('input', () => fn(this.read()));
        },
      };
    }
  }
}

async function save(questionId, value, control) {
  if (value === undefined) {
    control.error.textContent = 'Enter a number, for example 3.14.';
    control.controls[0].setAttribute('aria-invalid', 'true');
    return;
  }
  control.error.textContent = '';
  control.controls[0].removeAttribute('aria-invalid');
  try {
    await client.setAnswer(questionId, value);
  } catch (err) {
    control.error.textContent = err.code === 'EDITING_LOCKED' ? 'This answer can no longer be changed.' : `Not saved: ${err.detail || err.code}`;
  }
  showProgress();
}

// ------------------------------------------------------------------ navigator, flags, progress

function currentSummary() {
  return summarize(client.questions, (id) => isAnswerValue(client.answer(id)), (id) => client.isFlagged(id));
}

function showProgress() {
  if (client) navigator_.update(currentSummary());
}

function showFlags() {
  for (const [id, control] of inputsByQuestion) {
    const flagged = client.isFlagged(id);
    control.flag.setAttribute('aria-pressed', String(flagged));
    control.flag.textContent = flagged ? 'Flagged for review' : 'Flag for review';
    control.fieldset.dataset.flagged = String(flagged);
  }
  showProgress();
}

async function toggleFlag(questionId, n, control) {
  const flagged = control.flag.getAttribute('aria-pressed') !== 'true';
  try {
    await client.setFlag(questionId, flagged);
    $('announce').textContent = flagged ? `Question ${n} flagged for review.` : `Question ${n} no longer flagged.`;
  } catch (err) {
    control.error.textContent = err.code === 'EDITING_LOCKED' ? 'The exam can no longer be changed.' : `Flag not saved: ${err.detail || err.code}`;
  }
  showFlags();
}

/** Follow a navigator link: the question is scrolled to and takes the focus (its fieldset). */
function jumpTo(n) {
  const fieldset = $(`question-${n}`);
  if (!fieldset) return;
  fieldset.scrollIntoView({ block: 'start' });
  fieldset.focus({ preventScroll: true });
  navigator_.setCurrent(n);
}

function applyLock() {
  const reason = client.lockReason();
  const locked = reason !== null;
  for (const c of inputsByQuestion.values()) c.fieldset.disabled = locked;
  const submitButton = $('submit-button');
  submitButton.disabled = locked && reason !== 'deadline' && reason !== 'closed';
  if (reason === 'deadline') {
    showAlert('Time is up. Your answers can no longer be changed and are being handed in.');
  } else if (reason === 'other-tab') {
    showAlert(ERROR_TEXT.OPEN_IN_ANOTHER_TAB, { label: 'Use this tab instead', run: () => client.takeOverFromOtherTab().then(applyLock) });
  } else if (reason === 'taken-over') {
    showAlert(ERROR_TEXT.SESSION_TAKEN_OVER, { label: 'Sign in again on this device', run: () => showLogin(client.session) });
  } else if (reason === 'closed') {
    showAlert(ERROR_TEXT.SESSION_CLOSED);
  } else if (!client.status.error || client.status.error.code !== 'AUTH_REQUIRED') {
    showAlert(null);
  }
}

// ------------------------------------------------------------------ status and time

function onStatus(status) {
  const banner = $('status');
  banner.dataset.state = status.state;
  let text = status.message;
  if (status.state === 'error' && status.error) {
    text = STATUS_ERROR_TEXT[status.error.code] || `${status.message} (${status.error.code})`;
    if (status.error.code === 'AUTH_REQUIRED') {
      showAlert(ERROR_TEXT.AUTH_REQUIRED, { label: 'Sign in again', run: () => showLogin(client.session) });
    }
  }
  if (status.state === 'saved' && status.pending === 0) text = 'All answers saved.';
  banner.textContent = text;
  // Routine autosaves should not chatter in a screen reader: the region is "busy" while
  // saving, so only where it settles (saved, offline, error…) is announced.
  if (status.state === 'saving') banner.setAttribute('aria-busy', 'true');
  else banner.removeAttribute('aria-busy');
  document.body.dataset.status = status.state;
}

function showLive(state) {
  const live = $('live');
  live.dataset.state = state;
  live.textContent = LIVE_TEXT[state] || '';
  live.title = state === 'open' ? 'Connected: time and messages from the invigilator arrive at once.' : state === 'fallback' ? 'No live connection here: the page checks with the server every 30 seconds.' : '';
  live.hidden = !LIVE_TEXT[state];
  document.body.dataset.live = state; // for the end-to-end tests
}

function formatRemaining(ms) {
  const total = Math.ceil(ms / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const mm = String(m).padStart(2, '0');
  const ss = String(s).padStart(2, '0');
  return h > 0 ? `${h}:${mm}:${ss}` : `${mm}:${ss}`;
}

function tick() {
  if (!client) return;
  const remaining = client.remainingMs();
  const timer = $('timer');
  if (remaining === null) {
    timer.textContent = '--:--';
    return;
  }
  timer.textContent = formatRemaining(remaining);
  timer.classList.toggle('low', remaining <= 5 * 60_000);
  for (const [limit, words] of [[5 * 60_000, '5 minutes left.'], [60_000, '1 minute left.']]) {
    if (remaining <= limit && remaining > 0 && !announced.has(limit)) {
      announced.add(limit);
      $('announce').textContent = words;
    }
  }
  if (remaining === 0 && client.isEditable() === false) applyLock();
}

// ------------------------------------------------------------------ the exam

function showDone(paper) {
  if ($('confirm').open) $('confirm').close();
  show('done');
  clearInterval(timerHandle);
  $('timer').textContent = '';
  showLive('off');
  const info = paper?.paperId
    ? `Receipt: paper ${paper.paperId}${Number.isFinite(paper.answerCount) ? `, ${paper.answerCount} answered questions` : ''}${paper.submittedAt ? `, ${paper.submittedAt}` : ''}.`
    : 'Your paper has been recorded.';
  $('paper-info').textContent = info;
  showAlert(null);
  $('done-heading').focus();
}

/** The confirmation before the one submit: what is not answered and what is flagged, each a way back to it. */
function confirmSubmit() {
  const summary = currentSummary();
  const dialog = $('confirm');
  const all = summary.answered === summary.total;
  $('confirm-summary').textContent = `You have answered ${summary.answered} of ${summary.total} questions.${all ? '' : ` ${summary.unanswered.length === 1 ? 'One question has' : `${summary.unanswered.length} questions have`} no answer.`} Once submitted, your answers cannot be changed.`;
  const list = (sectionId, headingText, items) => {
    const section = $(sectionId);
    section.hidden = items.length === 0;
    section.querySelector('h3').textContent = headingText;
    section.querySelector('ul').replaceChildren(...items.map(({ n }) => {
      const go = el('button', { type: 'button', className: 'link', text: `Question ${n}` });
      go.addEventListener('click', () => {
        dialog.close();
        jumpTo(n);
      });
      return el('li', {}, [go]);
    }));
  };
  list('confirm-unanswered', `Not answered (${summary.unanswered.length})`, summary.unanswered);
  list('confirm-flagged', `Flagged for review (${summary.flagged.length})`, summary.flagged);
  $('confirm-submit').textContent = all && summary.flagged.length === 0 ? 'Submit now' : 'Submit anyway';
  dialog.showModal();
}

async function submit() {
  if ($('confirm').open) $('confirm').close();
  const button = $('submit-button');
  button.disabled = true;
  button.textContent = 'Submitting…';
  try {
    showDone(await client.submit());
  } catch (err) {
    if (client.state === 'failed-final') {
      showAlert(`The submission was refused (${err.code}). Your answers remain saved; please contact the invigilator.`);
    }
    button.textContent = 'Submit my answers';
    applyLock();
  }
}

async function openExam(c) {
  client = c;
  announced = new Set();
  window.examClient = c; // for diagnostics and the end-to-end tests
  $('title').textContent = c.session.paper?.title ? String(c.session.paper.title) : `Exam ${c.session.examId ?? ''}`.trim();
  document.title = $('title').textContent;
  c.on('status', onStatus);
  c.on('lock', applyLock);
  c.on('answers', ({ questionIds }) => {
    for (const q of questionIds) inputsByQuestion.get(q)?.write(c.answer(q));
    showProgress();
  });
  c.on('flags', showFlags);
  c.on('submitted', (paper) => showDone(paper));
  c.on('live', ({ state }) => showLive(state));
  c.on('pause', ({ paused }) => {
    showPaused(paused);
    $('announce').textContent = paused ? 'The exam is paused. Your time is stopped.' : 'The exam has resumed.';
  });
  c.on('command', (command) => {
    if (command?.type === 'WARNING' && command.message) showAlert(`Message from the invigilator: ${String(command.message)}`);
    if (command?.type === 'EXTENDED') $('announce').textContent = 'Your time has been extended.';
    if (command?.type === 'ANNOUNCEMENT' && command.text) showAnnouncement(command);
  });
  if (c.state === 'submitted') {
    showDone(c.paper);
    return;
  }
  if (c.questions.some((q) => q.format === 'markdown')) {
    // Offline without the module cached, Markdown is shown as its text: never as HTML.
    content = await import('/content.js').catch(() => null);
  }
  renderQuestions();
  show('exam');
  showLive(c.liveState);
  showPaused(c.isPaused());
  onStatus(c.status);
  applyLock();
  c.startProctoring();
  clearInterval(timerHandle);
  timerHandle = setInterval(tick, 1000);
  tick();
  if (c.state === 'submitting') submit(); // a reload in the middle of submitting: same request again
  document.body.dataset.ready = 'exam';
}

$('submit-button').addEventListener('click', confirmSubmit);
$('confirm-submit').addEventListener('click', submit);
$('confirm-cancel').addEventListener('click', () => $('confirm').close());
$('signout-button').addEventListener('click', async () => {
  // Only on the done screen: the paper is confirmed, so nothing of the session is left to keep on this device.
  await client?.forget();
  client = null;
  await ExamClient.clearCurrent();
  clearInterval(timerHandle);
  showLogin();
});

async function boot() {
  if ('serviceWorker' in navigator) navigator.serviceWorker.register('/sw.js').catch(() => {});
  try {
    const resumed = await ExamClient.resume();
    if (resumed) await openExam(resumed);
    else showLogin();
  } catch (err) {
    showLogin();
    $('login-error').textContent = `This browser cannot keep answers offline (${err.message}).`;
  }
  document.body.dataset.booted = 'true';
}

boot();
