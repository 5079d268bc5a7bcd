/**
 * The console's drafts (docs/api.md §3.1, "Drafts") in headless Chromium against the RUNNING SUITE (./exam up):
 * an author starts a draft, is shown what publishing still needs, loses a race to an edit made elsewhere and is
 * told so (the form keeps theirs), uploads a figure and shows it in a Markdown question, completes the exam and
 * publishes it — then a candidate starts it and another sees the figure on the exam page — and a
 * published exam is duplicated into a new draft, which is deleted. Skips (or fails with EXAM_E2E_REQUIRE_SUITE=1)
 * like suite.e2e.test.mjs.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { SAMPLE_QUESTIONS } from '../test/support/fake-api.mjs';
import { launch, artifact, servePage } from './support/browser.mjs';
import { upstreams, suiteSkip, operatorToken as mintOperatorToken } from './support/suite.mjs';
import { signIn, question, newExamContext } from './support/scenario.mjs';

const skip = await suiteSkip();

const TRIANGLE_SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="160" height="100"><path d="M10 90 L150 90 L10 10 Z" fill="#cde" '
  + 'stroke="#123" onclick="alert(1)"/><text x="14" y="84">90°</text></svg>';

let token;
let pageServer;
let baseUrl;
let browser;
let author; // the console's page

/** The session-service API as another author would use it, beside the console. */
async function sessionApi(method, urlPath, body, headers = {}) {
  const res = await fetch(`${upstreams.session}${urlPath}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, etag: res.headers.get('etag'), json: text ? JSON.parse(text) : null };
}

const local = (ms) => {
  const d = new Date(ms);
  const p = (n) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
};

const draftIdOf = (page) => decodeURIComponent(/#\/drafts\/([^/]+)$/.exec(page.url())[1]);

before(async () => {
  if (skip) return;
  token = mintOperatorToken('e2e-author');
  ({ server: pageServer, baseUrl } = await servePage(upstreams));
  browser = await launch();
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
  author = await context.newPage();
  await author.goto(`${baseUrl}/console/`);
  await author.waitForFunction(() => document.body.dataset.booted === 'true');
  await author.getByRole('textbox', { name: 'Operator token' }).fill(token);
  await author.getByRole('button', { name: 'Sign in' }).click();
  await author.getByRole('heading', { name: 'Drafts' }).waitFor();
});

after(async () => {
  await browser?.close();
  pageServer?.close();
});

test('console: a draft is written in steps, loses a race visibly, and is published into an exam a candidate starts', { skip }, async () => {
  const title = `Authoring e2e ${new Date().toISOString()}`;
  await author.getByRole('button', { name: 'New exam draft' }).click();
  await author.getByRole('heading', { name: 'Untitled exam', level: 2 }).waitFor();
  const examId = draftIdOf(author);

  // a title only: saved, and publishing says what is missing
  await author.getByLabel('Title', { exact: true }).fill(title);
  await author.getByRole('button', { name: 'Save the draft' }).click();
  await author.getByRole('heading', { name: title, level: 2 }).waitFor();
  await author.getByRole('button', { name: 'Publish the exam' }).click();
  const problems = author.locator('#draft-problems');
  await problems.filter({ hasText: 'questions' }).waitFor();
  assert.match(await problems.textContent(), /durationSeconds/);

  // someone else edits the same version meanwhile: the console's save is refused, not lost silently
  const read = await sessionApi('GET', `/api/v1/exams/${examId}`);
  const other = await sessionApi('PATCH', `/api/v1/exams/${examId}`, { graceSeconds: 45 },
    { 'content-type': 'application/merge-patch+json', 'if-match': read.etag });
  assert.equal(other.status, 200);
  await author.getByLabel('Duration in minutes', { exact: true }).fill('60');
  await author.getByRole('button', { name: 'Save the draft' }).click();
  await problems.filter({ hasText: 'Someone else changed this draft' }).waitFor();
  assert.equal(await author.getByLabel('Duration in minutes', { exact: true }).inputValue(), '60', 'the form keeps the author\'s edit');
  await author.screenshot({ path: artifact('authoring-conflict.png'), fullPage: true });

  // reload shows the other edit; complete the exam and publish it
  await author.getByRole('button', { name: 'Reload the draft' }).click();
  await author.waitForFunction(() => document.getElementById('d-grace').value === '45');
  assert.equal(await author.getByLabel('Duration in minutes', { exact: true }).inputValue(), '', 'reloaded: the server\'s draft, not the form');
  const now = Date.now();
  await author.getByLabel('Opens at (your time)', { exact: true }).fill(local(now - 120_000));
  await author.getByLabel('Closes at (your time)', { exact: true }).fill(local(now + 3 * 3600_000));
  await author.getByLabel('Duration in minutes', { exact: true }).fill('60');
  // a figure: uploaded in the console, shown by a Markdown question with the line the console gives
  await author.getByLabel('An image for a question (PNG, JPEG or SVG, at most 1 MiB)').setInputFiles({
    name: 'triangle.svg', mimeType: 'image/svg+xml', buffer: Buffer.from(TRIANGLE_SVG) });
  await author.getByRole('button', { name: 'Upload the figure' }).click();
  const line = author.locator('#d-figures li code');
  await line.waitFor();
  const figureLine = (await line.textContent()).replace('what it shows', 'a right triangle with legs 140 and 80');
  assert.match(figureLine, /^!\[a right triangle with legs 140 and 80\]\(figure:[0-9a-f]{64}\)$/);
  await author.waitForFunction(() => document.querySelector('#d-figures img.figure-preview')?.naturalWidth === 160);
  const withFigure = { id: 'qf', type: 'SINGLE', format: 'markdown', prompt: `Which angle is right?\n\n${figureLine}`,
    options: ['the one at the bottom left', 'none'], points: 1, key: 'the one at the bottom left' };
  await author.getByLabel('Questions (JSON, as in the API reference)', { exact: true })
    .fill(JSON.stringify([...SAMPLE_QUESTIONS.slice(0, 2), withFigure], null, 2));
  await author.getByRole('button', { name: 'Publish the exam' }).click();
  await author.getByRole('heading', { name: title, level: 2 }).waitFor();
  await author.waitForFunction((id) => location.hash === `#/exams/${encodeURIComponent(id)}`, examId);

  const published = await sessionApi('GET', `/api/v1/exams/${examId}`);
  assert.equal(published.status, 200);
  assert.equal(published.json.state, 'OPEN');
  assert.equal(published.json.graceSeconds, 45);
  assert.deepEqual(published.json.questions.map((q) => q.id), ['q1', 'q2', 'qf']);
  const refused = await sessionApi('PATCH', `/api/v1/exams/${examId}`, { title: 'changed' },
    { 'content-type': 'application/merge-patch+json', 'if-match': '"9"' });
  assert.equal(refused.status, 409);
  assert.equal(refused.json.code, 'EXAM_PUBLISHED');

  // a candidate starts it
  const enrolled = await sessionApi('POST', `/api/v1/exams/${examId}/candidates`, { candidates: [{ candidateId: 'c-authoring' }] });
  const started = await fetch(`${upstreams.session}/api/v1/sessions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ examId, candidateId: 'c-authoring', accessCode: enrolled.json.candidates[0].accessCode }),
  });
  assert.equal(started.status, 201);

  // another candidate sees the figure on the exam page, drawn from the bytes the SDK fetched with the session token
  const second = await sessionApi('POST', `/api/v1/exams/${examId}/candidates`, { candidates: [{ candidateId: 'c-authoring-2' }] });
  const candidateContext = await newExamContext(browser);
  const candidate = await candidateContext.newPage();
  await signIn(candidate, baseUrl, { examId, candidateId: 'c-authoring-2', accessCode: second.json.candidates[0].accessCode });
  const figure = question(candidate, 'qf').locator('.prompt img.figure');
  await candidate.waitForFunction(() => document.querySelector('.prompt img.figure')?.naturalWidth === 160);
  assert.equal(await figure.getAttribute('alt'), 'a right triangle with legs 140 and 80');
  assert.match(await figure.getAttribute('src'), /^blob:/);
  await question(candidate, 'qf').screenshot({ path: artifact('authoring-figure-candidate.png') });
  await candidateContext.close();

  // the exams list shows it; the drafts list no longer does
  await author.goto(`${baseUrl}/console/#/exams`);
  await author.getByRole('link', { name: title, exact: true }).waitFor();
  assert.equal(await author.locator(`#drafts-body tr[data-exam-id="${examId}"]`).count(), 0);
});

test('console: a published exam is duplicated into a draft, which can be deleted', { skip }, async () => {
  const source = await sessionApi('POST', '/api/v1/exams', {
    title: `Duplicate me ${Date.now()}`,
    opensAt: new Date(Date.now() - 60_000).toISOString(),
    closesAt: new Date(Date.now() + 3600_000).toISOString(),
    durationSeconds: 1800,
    questions: SAMPLE_QUESTIONS,
  });
  assert.equal(source.status, 201);
  const title = (await sessionApi('GET', `/api/v1/exams/${source.json.examId}`)).json.title;
  await author.goto(`${baseUrl}/console/#/exams/${source.json.examId}`);
  await author.getByRole('heading', { name: title, level: 2 }).waitFor();
  await author.getByRole('button', { name: 'Duplicate into a draft' }).click();
  await author.waitForFunction(() => location.hash.startsWith('#/drafts/'));
  await author.getByRole('heading', { name: title, level: 2 }).waitFor();
  const copyId = draftIdOf(author);
  assert.notEqual(copyId, source.json.examId);
  assert.match(await author.getByLabel('Questions (JSON, as in the API reference)', { exact: true }).inputValue(), /"Capital of France"/);
  assert.equal(await author.getByLabel('Duration in minutes', { exact: true }).inputValue(), '30');

  await author.getByRole('button', { name: 'Delete the draft' }).click();
  await author.getByRole('dialog').getByRole('button', { name: 'Delete the draft' }).click();
  await author.getByRole('heading', { name: 'Drafts' }).waitFor();
  assert.equal((await sessionApi('GET', `/api/v1/exams/${copyId}`)).status, 404);
  assert.equal((await sessionApi('GET', `/api/v1/exams/${source.json.examId}`)).status, 200);
});
