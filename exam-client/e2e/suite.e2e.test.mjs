/**
 * The reference page in headless Chromium against the RUNNING SUITE (./exam up): the page
 * is served by server.mjs, which proxies /api/v1/... to the four services as the ingress does.
 *
 * Environment:
 *   EXAM_SESSION_URL, EXAM_ANSWER_URL, EXAM_SUBMISSION_URL, EXAM_GRADING_URL   services (default 127.0.0.1:8081–8084)
 *   EXAM_E2E_PAGE_URL        use an already served page (e.g. an ingress) instead of starting server.mjs
 *   EXAM_OPERATOR_TOKEN      operator JWT; default: the last line of `../exam token operator`
 *   EXAM_E2E_REQUIRE_SUITE=1 fail (instead of skip) when the suite does not answer
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { SAMPLE_QUESTIONS } from '../test/support/fake-api.mjs';
import { launch, artifact, servePage } from './support/browser.mjs';
import { upstreams, suiteSkip, operatorToken as mintOperatorToken } from './support/suite.mjs';
import { signIn, offlineJourney, submitJourney, takeoverJourney, newExamContext } from './support/scenario.mjs';

const skip = await suiteSkip();

let operatorToken;
let pageServer;
let baseUrl;
let browser;

async function operator(method, service, urlPath, body) {
  const res = await fetch(`${upstreams[service]}${urlPath}`, {
    method,
    headers: { authorization: `Bearer ${operatorToken}`, 'content-type': 'application/json', accept: 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  const json = text ? JSON.parse(text) : null;
  if (!res.ok) throw new Error(`${method} ${urlPath} → ${res.status} ${text}`);
  return json;
}

async function createExamWithCandidate() {
  const now = Date.now();
  const { examId } = await operator('POST', 'session', '/api/v1/exams', {
    title: `Browser e2e ${new Date(now).toISOString()}`,
    opensAt: new Date(now - 60_000).toISOString(),
    closesAt: new Date(now + 3 * 3600_000).toISOString(),
    durationSeconds: 3600,
    graceSeconds: 30,
    questions: SAMPLE_QUESTIONS,
  });
  const candidateId = `c-e2e-${randomBytes(4).toString('hex')}`;
  const enrolled = await operator('POST', 'session', `/api/v1/exams/${examId}/candidates`, { candidates: [{ candidateId }] });
  return { examId, candidateId, accessCode: enrolled.candidates[0].accessCode };
}

/** GET /api/v1/answers/{id} (as the operator): {q: value} without cleared answers. */
async function serverAnswers(sessionId) {
  const draft = await operator('GET', 'answer', `/api/v1/answers/${sessionId}`);
  const out = {};
  for (const [q, a] of Object.entries(draft.answers || {})) if (a.value !== null) out[q] = a.value;
  return out;
}

before(async () => {
  if (skip) return;
  operatorToken = mintOperatorToken('e2e-browser');
  if (process.env.EXAM_E2E_PAGE_URL) {
    baseUrl = process.env.EXAM_E2E_PAGE_URL.replace(/\/+$/, '');
  } else {
    ({ server: pageServer, baseUrl } = await servePage(upstreams));
  }
  browser = await launch();
});

after(async () => {
  await browser?.close();
  pageServer?.close();
});

test('suite: answer, offline, reload offline, drops/delays → server draft = page; double submit + reload mid-submit → one paper', { skip }, async () => {
  const candidate = await createExamWithCandidate();
  const context = await newExamContext(browser);
  const page = await context.newPage();
  const paperIdsSeen = new Set();
  page.on('response', async (res) => {
    if (res.url().endsWith('/api/v1/submissions') && res.ok()) {
      const body = await res.json().catch(() => null);
      if (body?.paperId) paperIdsSeen.add(body.paperId);
    }
  });
  await signIn(page, baseUrl, candidate);
  const { sessionId, token, answers } = await offlineJourney({ page, context, baseUrl, serverAnswers, screenshot: 'suite-offline-banner.png' });

  const papers = async (id) => {
    const session = await operator('GET', 'session', `/api/v1/sessions/${id}`);
    if (session.paperId) paperIdsSeen.add(session.paperId);
    return [...paperIdsSeen];
  };
  const { paperId, attempts } = await submitJourney({ page, papers, sessionId, token });
  assert.ok(attempts >= 2, 'the reload resent the submission (same key, same bytes)');
  const paper = await operator('GET', 'submission', `/api/v1/submissions/${paperId}`);
  assert.equal(paper.sessionId, sessionId);
  const onPaper = Object.fromEntries(Object.entries(paper.answers).filter(([, a]) => a.value !== null).map(([q, a]) => [q, a.value]));
  assert.deepEqual(onPaper, answers, 'the paper holds exactly the page answers');
  await page.screenshot({ path: artifact('suite-submitted.png') });
  await context.close();
});

test('suite: another device takes over → this page locks (TAKEN_OVER and 4409 on its socket); signing in again merges by stamp', { skip }, async () => {
  const credentials = await createExamWithCandidate();
  await takeoverJourney({ browser, baseUrl, credentials, serverAnswers, screenshot: 'suite-takeover.png' });
});

test('suite: the page holds an open live socket during the exam; a WARNING sent through the API shows within 1 s, an extension moves the timer', { skip }, async (t) => {
  const candidate = await createExamWithCandidate();
  const context = await newExamContext(browser);
  const page = await context.newPage();
  const frames = [];
  page.on('websocket', (ws) => {
    if (/\/api\/v1\/sessions\/[^/]+\/live$/.test(ws.url())) ws.on('framereceived', (f) => frames.push(JSON.parse(String(f.payload))));
  });
  let heartbeats = 0;
  page.on('request', (req) => req.url().includes('/heartbeat') && heartbeats++);
  await signIn(page, baseUrl, candidate);
  await page.waitForFunction(() => document.body.dataset.live === 'open', null, { timeout: 15_000 });
  assert.equal(await page.locator('#live').textContent(), 'Live');
  assert.ok(frames.some((f) => f.type === 'TIME'), 'session-service spoke on the socket');
  const sessionId = await page.evaluate(() => window.examClient.sessionId);
  await page.waitForFunction(() => window.examClient.status.state === 'saved'); // the catch-up heartbeat is done

  const message = `Please keep your eyes on your own screen (${randomBytes(3).toString('hex')}).`;
  const before = heartbeats;
  const sentAt = Date.now();
  const queued = await operator('POST', 'session', `/api/v1/sessions/${sessionId}/warn`, { message });
  await page.getByRole('alert').filter({ hasText: message }).waitFor({ timeout: 5000 });
  const tookMs = Date.now() - sentAt;
  t.diagnostic(`warning: API call to alert on the page in ${tookMs} ms`);
  assert.ok(tookMs <= 1000, `the warning reached the page in ${tookMs} ms (at most 1 s)`);
  assert.equal(heartbeats, before, 'by the socket, not a heartbeat');
  assert.ok(frames.some((f) => f.type === 'WARNING' && f.id === queued.commandId && f.message === message));
  await page.screenshot({ path: artifact('suite-live-warning.png') });

  const remaining = await page.evaluate(() => window.examClient.remainingMs());
  await operator('POST', 'session', `/api/v1/sessions/${sessionId}/extend`, { seconds: 600, reason: 'e2e: live channel' });
  await page.waitForFunction(() => document.getElementById('announce').textContent === 'Your time has been extended.', null, { timeout: 5000 });
  const extended = await page.evaluate(() => window.examClient.remainingMs());
  assert.ok(extended > remaining + 590_000, `remaining ${remaining} → ${extended} ms`);
  assert.equal(heartbeats, before, 'still no heartbeat needed');
  await context.close();
});

test('suite: session-service refuses unsafe Markdown; a math + code question renders; review flags live in the real draft and never in the paper', { skip }, async () => {
  const now = Date.now();
  const exam = (questions) => ({ title: 'Rich e2e', opensAt: new Date(now - 60_000).toISOString(), closesAt: new Date(now + 3 * 3600_000).toISOString(), durationSeconds: 3600, questions });
  const refused = await fetch(`${upstreams.session}/api/v1/exams`, {
    method: 'POST',
    headers: { authorization: `Bearer ${operatorToken}`, 'content-type': 'application/json' },
    body: JSON.stringify(exam([{ id: 'x1', type: 'ESSAY', format: 'markdown', prompt: 'Hi <img src=x onerror=alert(1)>', points: 1 }])),
  });
  assert.equal(refused.status, 400);
  assert.equal(refused.headers.get('content-type'), 'application/problem+json');
  const problem = await refused.json();
  assert.equal(problem.code, 'UNSAFE_CONTENT');
  assert.equal(problem.questionId, 'x1');
  assert.equal(problem.field, 'questions[0].prompt');

  const { examId } = await operator('POST', 'session', '/api/v1/exams', exam([
    { id: 'm1', type: 'ESSAY', format: 'markdown', prompt: 'Show that $\\sum_{k=1}^{n} k = \\frac{n(n+1)}{2}$:\n\n```js\nconst sum = (n) => (n * (n + 1)) / 2;\n```', points: 2 },
    { id: 'm2', type: 'SINGLE', format: 'markdown', prompt: 'Pick $\\pi$', options: ['$3.14$', '$2.72$'], points: 1, key: '$3.14$' },
  ]));
  const candidateId = `c-e2e-${randomBytes(4).toString('hex')}`;
  const enrolled = await operator('POST', 'session', `/api/v1/exams/${examId}/candidates`, { candidates: [{ candidateId }] });
  const context = await newExamContext(browser);
  try {
    const page = await context.newPage();
    await signIn(page, baseUrl, { examId, candidateId, accessCode: enrolled.candidates[0].accessCode });
    await page.locator('fieldset[data-question-id="m1"] .math-inline .katex').waitFor();
    assert.equal(await page.locator('fieldset[data-question-id="m1"] pre code.hljs .hljs-keyword').first().textContent(), 'const');
    await page.locator('fieldset[data-question-id="m2"]').getByRole('radio').first().check();
    await page.getByRole('button', { name: 'Flag question 1 for review' }).click();
    await page.waitForFunction(() => window.examClient.pendingCount() === 0 && document.body.dataset.status === 'saved');
    const sessionId = await page.evaluate(() => window.examClient.sessionId);
    const draft = await operator('GET', 'answer', `/api/v1/answers/${sessionId}`);
    assert.deepEqual(draft.answers['~review'].value, ['m1'], 'answer-service holds the flags');
    assert.equal(draft.answers.m2.value, '$3.14$');
    await page.getByRole('button', { name: 'Submit my answers' }).click();
    await page.getByRole('dialog', { name: 'Submit your answers?' }).getByRole('button', { name: 'Submit anyway' }).click();
    await page.waitForFunction(() => document.body.dataset.view === 'done', null, { timeout: 60_000 });
    const paperId = await page.evaluate(() => window.examClient.paper.paperId);
    const paper = await operator('GET', 'submission', `/api/v1/submissions/${paperId}`);
    assert.deepEqual(Object.keys(paper.answers), ['m2'], 'the paper holds answers only');
    // the proctor console shows the same question rendered, with its key
    const proctor = await context.newPage();
    await proctor.goto(`${baseUrl}/console/`);
    await proctor.getByRole('textbox', { name: 'Operator token' }).fill(operatorToken);
    await proctor.getByRole('button', { name: 'Sign in' }).click();
    await proctor.goto(`${baseUrl}/console/#/exams/${examId}`);
    await proctor.getByText('Questions and keys (2)').click();
    await proctor.locator('[data-question-id="m1"] .math-inline .katex').waitFor();
    assert.equal(await proctor.locator('[data-question-id="m1"] pre code.hljs .hljs-keyword').first().textContent(), 'const');
    assert.equal(await proctor.locator('[data-question-id="m2"] .question-key').textContent(), 'Key: "$3.14$"');
  } finally {
    await context.close();
  }
});
