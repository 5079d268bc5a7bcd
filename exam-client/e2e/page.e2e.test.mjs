/**
 * The reference page in real headless Chromium, served by server.mjs, whose API proxy
 * points at the FAKE API (test/support/fake-api.mjs): this proves the page and the SDK
 * in a browser (rendering, IndexedDB, service worker, offline, reload, submit), NOT the
 * suite. suite.e2e.test.mjs runs the same journeys against the running services.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { FakeExamApi, SAMPLE_QUESTIONS } from '../test/support/fake-api.mjs';
import { launch, chromiumMissing, artifact, servePage } from './support/browser.mjs';
import { signIn, offlineJourney, submitJourney, takeoverJourney, question, readPageAnswers, newExamContext, waitSynced } from './support/scenario.mjs';

const skip = chromiumMissing();
let fake;
let fakeServer;
let pageServer;
let baseUrl;
let browser;

before(async () => {
  if (skip) return;
  fake = new FakeExamApi();
  const listening = await fake.listen(0);
  fakeServer = listening.server;
  const api = `http://127.0.0.1:${listening.port}`;
  ({ server: pageServer, baseUrl } = await servePage({ session: api, answer: api, submission: api, grading: api }));
  browser = await launch();
});

after(async () => {
  await browser?.close();
  pageServer?.close();
  fakeServer?.close();
});

const FAKE_ANSWERS = (sessionId) => fake.currentAnswers(sessionId);
const FAKE_PAPERS = (sessionId) => fake.papersFor(sessionId).map((p) => p.paperId);

test('page renders every question type as text only, accessibly (fake API)', { skip }, async () => {
  const hostile = '<img src=x onerror="window.__xss=1">Which is <b>bold</b>?';
  const examId = fake.createExam({
    examId: 'render-check',
    questions: [...SAMPLE_QUESTIONS.slice(0, 5), { id: 'q6', type: 'ESSAY', prompt: hostile, points: 10 }, { id: 'q7', type: 'SINGLE', prompt: 'Pick', options: ['<script>window.__xss=2</script>', 'plain'] }],
  });
  const context = await newExamContext(browser);
  const page = await context.newPage();
  await signIn(page, baseUrl, { examId, candidateId: 'c-001', accessCode: 'code-001' });
  assert.equal(await page.locator('fieldset.question').count(), 7);
  assert.equal(await page.locator('#prompt-6').textContent(), hostile, 'shown as text');
  assert.equal(await page.locator('fieldset.question img, fieldset.question b, fieldset.question script').count(), 0, 'no markup from the server');
  assert.equal(await page.evaluate(() => window.__xss), undefined);
  // Labels and roles a screen reader relies on.
  await question(page, 'q1').getByRole('radio', { name: '4' }).check();
  await question(page, 'q2').getByRole('checkbox', { name: '5' }).check();
  await question(page, 'q3').getByRole('radio', { name: 'True' }).check();
  await page.getByRole('textbox', { name: 'Capital of France' }).fill('Paris');
  await page.getByRole('textbox', { name: 'pi to 2 dp' }).fill('abc');
  assert.match(await question(page, 'q5').locator('.error').textContent(), /Enter a number/);
  await page.getByRole('textbox', { name: 'pi to 2 dp' }).fill('3.14');
  assert.equal(await page.getByRole('status').count(), 1);
  assert.equal(await page.getByRole('timer').count(), 1);
  assert.match(await page.getByRole('timer').textContent(), /^\d?:?\d\d:\d\d$/);
  // Keyboard only: Tab reaches the next question's flag, then its answer control.
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'Flag question 6 for review');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'answer-6', 'Tab moves from question 5 to question 6');
  await waitSynced(page);
  assert.deepEqual(await readPageAnswers(page), { q1: '4', q2: ['5'], q3: true, q4: 'Paris', q5: 3.14 });
  await page.screenshot({ path: artifact('exam-page.png'), fullPage: true });
  await context.close();
});

test('offline, reload offline, drops and delays, then double-click submit and reload mid-submit → one paper (fake API)', { skip }, async () => {
  const examId = fake.createExam({ examId: 'journey' });
  const context = await newExamContext(browser);
  const page = await context.newPage();
  await signIn(page, baseUrl, { examId, candidateId: 'c-001', accessCode: 'code-001' });
  const { sessionId, token, answers } = await offlineJourney({ page, context, baseUrl, serverAnswers: FAKE_ANSWERS });
  const { paperId, attempts } = await submitJourney({ page, papers: FAKE_PAPERS, sessionId, token });
  const paper = fake.papersFor(sessionId)[0];
  assert.equal(paper.paperId, paperId);
  const onPaper = Object.fromEntries(Object.entries(paper.answers).filter(([, a]) => a.value !== null).map(([q, a]) => [q, a.value]));
  assert.deepEqual(onPaper, answers, 'the paper holds the page answers');
  assert.ok(attempts >= 2, 'the reload resent the submission');
  // a shared PC: the browser keeps the receipt only, and Finish removes that too
  const kept = () => page.evaluate(() => new Promise((resolve, reject) => {
    const open = indexedDB.open('exam-client');
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const tx = open.result.transaction(['sessions', 'answers'], 'readonly');
      const sessions = tx.objectStore('sessions').getAll();
      const answers = tx.objectStore('answers').getAll();
      tx.oncomplete = () => { resolve({ sessions: sessions.result, answers: answers.result.length }); open.result.close(); };
    };
  }));
  await page.getByText('This device no longer keeps your answers or your sign-in').waitFor();
  const receipt = await kept();
  assert.equal(receipt.answers, 0, 'no answer left in IndexedDB');
  assert.deepEqual(receipt.sessions.map((s) => [s.paperId, s.token ?? null]), [[paperId, null]], 'a receipt without a token');
  await page.getByRole('button', { name: 'Finish' }).click();
  await page.locator('#login').waitFor({ state: 'visible' });
  assert.deepEqual(await kept(), { sessions: [], answers: 0 }, 'Finish leaves nothing');
  await context.close();
});

test('a second tab of the same exam is read-only until it takes over (fake API)', { skip }, async () => {
  const examId = fake.createExam({ examId: 'two-tabs' });
  const context = await newExamContext(browser);
  const first = await context.newPage();
  await signIn(first, baseUrl, { examId, candidateId: 'c-001', accessCode: 'code-001' });
  const second = await context.newPage();
  await second.goto(`${baseUrl}/`);
  await second.waitForFunction(() => document.body.dataset.ready === 'exam');
  await second.getByRole('button', { name: 'Use this tab instead' }).waitFor();
  assert.equal(await second.locator('fieldset.question input').first().isDisabled(), true, 'controls are disabled');
  await second.getByRole('button', { name: 'Use this tab instead' }).click();
  await first.getByRole('button', { name: 'Use this tab instead' }).waitFor();
  await question(second, 'q4').locator('input').fill('Paris');
  await waitSynced(second);
  assert.equal(fake.currentAnswers(await second.evaluate(() => window.examClient.sessionId)).q4, 'Paris');
  await context.close();
});

test('takeover: when another device signs in, this page locks, says so calmly, and can sign in again (fake API)', { skip }, async () => {
  const examId = fake.createExam({ examId: 'takeover' });
  await takeoverJourney({ browser, baseUrl, credentials: { examId, candidateId: 'c-001', accessCode: 'code-001' }, serverAnswers: FAKE_ANSWERS });
});

test('at the server deadline editing locks and the sheet is handed in (fake API, 8 s exam)', { skip }, async () => {
  const examId = fake.createExam({ examId: 'deadline', durationMs: 8000, graceMs: 30_000 });
  const context = await newExamContext(browser);
  const page = await context.newPage();
  await signIn(page, baseUrl, { examId, candidateId: 'c-001', accessCode: 'code-001' });
  await page.route('**/api/v1/answers/**', (route) => route.abort('connectionreset')); // the last answer never syncs
  await question(page, 'q4').locator('input').fill('Paris');
  await page.waitForFunction(() => window.examClient.answer('q4') === 'Paris');
  await page.waitForFunction(() => document.body.dataset.view === 'done', null, { timeout: 30_000 });
  const sessionId = await page.evaluate(() => window.examClient.sessionId);
  assert.equal(fake.papersFor(sessionId)[0].answers.q4.value, 'Paris', 'the unsynced answer reached the paper through the sheet');
  assert.equal(await page.evaluate(() => window.examClient.setAnswer('q4', 'Lyon').then(() => 'saved', (e) => e.code)), 'EDITING_LOCKED');
  await context.close();
});

test('the page holds an open live socket during the exam; commands pushed over it show at once, also after a reconnect (fake API)', { skip }, async () => {
  const examId = fake.createExam({ examId: 'live' });
  const context = await newExamContext(browser);
  const page = await context.newPage();
  const frames = [];
  page.on('websocket', (ws) => {
    if (/\/api\/v1\/sessions\/[^/]+\/live$/.test(ws.url())) ws.on('framereceived', (f) => frames.push(String(f.payload)));
  });
  await signIn(page, baseUrl, { examId, candidateId: 'c-001', accessCode: 'code-001' });
  await page.waitForFunction(() => document.body.dataset.live === 'open', null, { timeout: 10_000 });
  const sessionId = await page.evaluate(() => window.examClient.sessionId);
  assert.equal(fake.liveSockets(sessionId).length, 1, 'one socket, authenticated for this session');
  assert.equal(await page.locator('#live').textContent(), 'Live');
  assert.ok(frames.some((f) => JSON.parse(f).type === 'TIME'), 'the server spoke on it');

  const heartbeats = () => fake.log.filter((e) => e.path === `/api/v1/sessions/${sessionId}/heartbeat`).length;
  const before = heartbeats();
  fake.pushCommand(sessionId, { type: 'WARNING', message: 'Eyes on your own screen, please.' });
  await page.getByRole('alert').filter({ hasText: 'Message from the invigilator: Eyes on your own screen, please.' }).waitFor({ timeout: 2000 });
  assert.equal(heartbeats(), before, 'it came by the socket, not the heartbeat');
  assert.ok(frames.some((f) => JSON.parse(f).type === 'WARNING'));
  await page.screenshot({ path: artifact('live-warning.png') });

  // The network drops the socket; a command sent meanwhile arrives once after the reconnect.
  fake.liveRefuse = true;
  fake.cutLive();
  await page.waitForFunction(() => document.body.dataset.live !== 'open');
  fake.pushCommand(sessionId, { type: 'WARNING', message: 'Sent while you were disconnected.' });
  fake.liveRefuse = false;
  await page.waitForFunction(() => document.body.dataset.live === 'open', null, { timeout: 15_000 });
  await page.getByRole('alert').filter({ hasText: 'Sent while you were disconnected.' }).waitFor({ timeout: 5000 });
  const seen = await page.evaluate(() => window.examClient.session.lastCommandId);
  assert.equal(seen, 2);
  assert.equal(fake.liveSockets(sessionId).length, 1);
  await context.close();
});

test('where sockets cannot open (a proxy refuses the upgrade) the page falls back to the heartbeat and keeps saving (fake API)', { skip }, async () => {
  const examId = fake.createExam({ examId: 'no-sockets' });
  const context = await newExamContext(browser);
  const page = await context.newPage();
  fake.liveRefuse = true;
  try {
    await signIn(page, baseUrl, { examId, candidateId: 'c-001', accessCode: 'code-001' });
    await page.waitForFunction(() => document.body.dataset.live === 'fallback', null, { timeout: 30_000 });
    assert.equal(await page.locator('#live').textContent(), 'Updates every 30 s');
    await question(page, 'q4').locator('input').fill('Paris');
    await waitSynced(page);
    assert.equal(fake.currentAnswers(await page.evaluate(() => window.examClient.sessionId)).q4, 'Paris');
  } finally {
    fake.liveRefuse = false;
    await context.close();
  }
});
