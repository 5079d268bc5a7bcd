/**
 * What a candidate does, in a real browser, against whatever API the page is proxied to
 * (the fake for page tests, the running suite for suite tests). Every step waits on the
 * page's own state (data attributes the page sets), never on fixed sleeps.
 */
import assert from 'node:assert/strict';
import { artifact } from './browser.mjs';

/**
 * Test-side helper put into every page of a context: the answers as the page's controls
 * show them, {questionId: value} (cleared answers left out).
 */
export function domAnswersScript() {
  window.__domAnswers = () => {
    const out = {};
    for (const fs of document.querySelectorAll('fieldset.question')) {
      const q = fs.dataset.questionId;
      const type = fs.dataset.type;
      let value = null;
      if (type === 'SINGLE' || type === 'TRUE_FALSE') {
        const c = fs.querySelector('input:checked');
        value = c ? JSON.parse(c.dataset.value) : null;
      } else if (type === 'MULTIPLE') {
        const c = [...fs.querySelectorAll('input:checked')].map((i) => JSON.parse(i.dataset.value));
        value = c.length ? c : null;
      } else {
        const input = fs.querySelector('input, textarea');
        value = input.value === '' ? null : type === 'NUMERIC' ? Number(input.value) : input.value;
      }
      if (value !== null) out[q] = value;
    }
    return out;
  };
}

export async function newExamContext(browser) {
  const context = await browser.newContext();
  await context.addInitScript(domAnswersScript);
  return context;
}

export function readPageAnswers(page) {
  return page.evaluate(() => window.__domAnswers());
}

/**
 * Wait until everything the page shows is in the SDK and acknowledged by the server:
 * DOM answers = SDK answers, nothing pending, banner "saved".
 */
export async function waitSynced(page, timeout = 60_000) {
  await page.waitForFunction(() => {
    const c = window.examClient;
    if (!c || document.body.dataset.status !== 'saved' || c.pendingCount() !== 0) return false;
    const sorted = (o) => JSON.stringify(Object.keys(o).sort().map((k) => [k, o[k]]));
    return sorted(window.__domAnswers()) === sorted(c.answers());
  }, null, { timeout, polling: 100 });
}

/** Wait until the SDK holds what the page shows (answers recorded on this device). */
export async function waitRecorded(page) {
  await page.waitForFunction(() => {
    const c = window.examClient;
    const sorted = (o) => JSON.stringify(Object.keys(o).sort().map((k) => [k, o[k]]));
    return c && sorted(window.__domAnswers()) === sorted(c.answers());
  }, null, { timeout: 30_000, polling: 100 });
}

export const question = (page, id) => page.locator(`fieldset[data-question-id="${id}"]`);

export async function waitStatus(page, state, timeout = 30_000) {
  await page.waitForFunction((s) => document.body.dataset.status === s, state, { timeout });
}

export async function signIn(page, baseUrl, { examId, candidateId, accessCode }) {
  await page.goto(`${baseUrl}/`);
  await page.waitForFunction(() => document.body.dataset.booted === 'true');
  await page.getByLabel('Exam ID').fill(examId);
  await page.getByLabel('Candidate ID').fill(candidateId);
  await page.getByLabel('Access code').fill(accessCode);
  await page.getByRole('button', { name: 'Start the exam' }).click();
  await page.waitForFunction(() => document.body.dataset.ready === 'exam', null, { timeout: 30_000 });
}

/** Answer the six sample question types (ids q1..q6, as in docs/api.md §4.2). */
export async function answerAll(page, round) {
  await question(page, 'q1').getByLabel(round === 1 ? '3' : '4').check();
  await question(page, 'q2').getByLabel('2', { exact: true }).check();
  if (round > 1) await question(page, 'q2').getByLabel('5').check();
  await question(page, 'q3').getByLabel(round === 1 ? 'False' : 'True').check();
  await question(page, 'q4').locator('input').fill(round === 1 ? 'Lyon' : 'Paris');
  await question(page, 'q5').locator('input').fill(round === 1 ? '3.1' : '3.14');
  await question(page, 'q6').locator('textarea').fill(`Because, round ${round}: <b>not markup</b> & "quotes"`);
}

export async function sessionOf(page) {
  return page.evaluate(() => ({ sessionId: window.examClient.sessionId, token: window.examClient.session.token }));
}

/**
 * The offline journey: answer, lose the network, keep answering, reload offline,
 * come back → the server's draft equals the page. Then drops and delays by interception.
 * @param {{page, context, baseUrl, serverAnswers: (sessionId, token) => Promise<object>, screenshot?: string}} env
 */
export async function offlineJourney({ page, context, baseUrl, serverAnswers, screenshot = 'offline-banner.png' }) {
  await answerAll(page, 1);
  await waitSynced(page);
  const { sessionId, token } = await sessionOf(page);
  assert.deepEqual(await serverAnswers(sessionId, token), await readPageAnswers(page), 'online: server draft = page');

  // The page must be able to come back with no network at all (service worker).
  await page.waitForFunction(() => navigator.serviceWorker?.controller != null, null, { timeout: 15_000 }).catch(async () => {
    await page.reload();
    await page.waitForFunction(() => navigator.serviceWorker?.controller != null, null, { timeout: 15_000 });
  });
  await page.waitForFunction(() => document.body.dataset.ready === 'exam');

  await context.setOffline(true);
  await question(page, 'q4').locator('input').fill('Marseille');
  await question(page, 'q2').getByLabel('4', { exact: true }).check();
  await waitStatus(page, 'offline-saved-locally');
  await waitRecorded(page);
  const banner = page.getByRole('status');
  assert.match(await banner.textContent(), /Network is poor — your answers are saved on this device and will sync automatically\./);
  await page.screenshot({ path: artifact(screenshot), fullPage: false });

  await page.reload(); // offline reload: page from the service worker, answers from IndexedDB
  await page.waitForFunction(() => document.body.dataset.ready === 'exam', null, { timeout: 30_000 });
  assert.equal(await question(page, 'q4').locator('input').inputValue(), 'Marseille');
  await answerAll(page, 2); // keep answering, still offline
  await question(page, 'q2').getByLabel('4', { exact: true }).uncheck();
  await waitStatus(page, 'offline-saved-locally');
  await waitRecorded(page);
  const offlineAnswers = await readPageAnswers(page);

  await context.setOffline(false);
  await waitSynced(page);
  assert.deepEqual(await readPageAnswers(page), offlineAnswers, 'coming back online changed nothing on the page');
  assert.deepEqual(await serverAnswers(sessionId, token), offlineAnswers, 'back online: server draft = page');

  // Dropped requests (interception): the answer waits on the device, then syncs.
  await page.route('**/api/v1/answers/**', (route) => route.abort('connectionreset'));
  await question(page, 'q6').locator('textarea').fill('dropped, then synced');
  await waitStatus(page, 'offline-saved-locally');
  await page.unroute('**/api/v1/answers/**');
  await page.evaluate(() => window.dispatchEvent(new Event('online'))); // or wait for the backoff
  await waitSynced(page);

  // Delayed requests: answers typed while a save hangs are not lost and go in the next one.
  let delayed = 0;
  await page.route('**/api/v1/answers/**', async (route) => {
    if (route.request().method() === 'PATCH' && delayed++ === 0) await new Promise((r) => setTimeout(r, 2500));
    await route.continue().catch(() => {});
  });
  await question(page, 'q4').locator('input').fill('Nice');
  await page.waitForFunction(() => document.body.dataset.status === 'saving');
  await question(page, 'q5').locator('input').fill('2.72');
  await waitSynced(page);
  await page.unroute('**/api/v1/answers/**');
  const final = await readPageAnswers(page);
  assert.deepEqual(await serverAnswers(sessionId, token), final, 'after drops and delays: server draft = page');
  return { sessionId, token, answers: final };
}

/**
 * Double-click submit while the first submission hangs, reload mid-submit, and check
 * that exactly one paper exists and the page shows it.
 * @param {{page, papers: (sessionId, token) => Promise<string[]>, sessionId, token}} env
 */
export async function submitJourney({ page, papers, sessionId, token }) {
  const seen = [];
  await page.route('**/api/v1/submissions', async (route) => {
    seen.push({ key: route.request().headers()['idempotency-key'], body: route.request().postData() });
    if (seen.length === 1) {
      // The first attempt reaches the server, but its answer is held back: the page is
      // reloaded before it arrives, so the server sees the request twice.
      const response = await route.fetch().catch(() => null);
      await new Promise((r) => setTimeout(r, 1500));
      if (response) await route.fulfill({ response }).catch(() => {});
      return;
    }
    await route.continue().catch(() => {});
  });
  await page.getByRole('button', { name: 'Submit my answers' }).click();
  await page.getByRole('dialog', { name: 'Submit your answers?' }).waitFor();
  await page.getByRole('button', { name: /^Submit (now|anyway)$/ }).dblclick();
  await page.waitForFunction(() => window.examClient?.state === 'submitting');
  await page.reload();
  await page.waitForFunction(() => document.body.dataset.view === 'done', null, { timeout: 60_000 });
  await page.unroute('**/api/v1/submissions');
  const receipt = await page.locator('#paper-info').textContent();
  assert.ok(seen.length >= 1);
  assert.equal(new Set(seen.map((s) => s.key)).size, 1, 'one Idempotency-Key for every attempt');
  assert.equal(new Set(seen.map((s) => s.body)).size, 1, 'byte-identical body for every attempt');
  const ids = await papers(sessionId, token);
  assert.equal(ids.length, 1, 'exactly one paper');
  assert.match(receipt, new RegExp(ids[0]));
  return { paperId: ids[0], attempts: seen.length };
}

/**
 * Another device signs in: the first page locks and says so — at once through its live socket
 * (TAKEN_OVER, close 4409), or with its next write (409 SESSION_TAKEN_OVER) without one;
 * signing in again there keeps its unsent answer and adopts the newer device's.
 * @param {{browser, baseUrl, credentials, serverAnswers: (sessionId) => Promise<object>, screenshot?: string}} env
 */
export async function takeoverJourney({ browser, baseUrl, credentials, serverAnswers, screenshot = 'takeover.png' }) {
  const laptop = await newExamContext(browser);
  const tablet = await newExamContext(browser); // another device: its own storage
  try {
    const a = await laptop.newPage();
    await signIn(a, baseUrl, credentials);
    await question(a, 'q4').locator('input').fill('Paris');
    await waitSynced(a);
    // An answer that has not reached the server when the other device signs in.
    await a.route('**/api/v1/answers/**', (route) => route.abort('connectionreset'));
    await question(a, 'q1').getByLabel('4').check();
    await a.waitForFunction(() => window.examClient.answer('q1') === '4');
    const hadSocket = await a.evaluate(() => window.examClient.liveState === 'open');
    const b = await tablet.newPage();
    await signIn(b, baseUrl, credentials);
    await question(b, 'q4').locator('input').fill('Rome');
    await waitSynced(b);
    const tabletEpoch = await b.evaluate(() => window.examClient.deviceEpoch);
    if (!hadSocket) {
      await a.unroute('**/api/v1/answers/**');
      await a.evaluate(() => window.dispatchEvent(new Event('online'))); // the retried write gets the 409
    }
    // With a socket, its writes still failing, only the socket can have told this page.
    await a.getByRole('alert').filter({ hasText: 'opened on another device' }).waitFor();
    if (hadSocket) assert.equal(await a.evaluate(() => window.examClient.liveState), 'off', 'socket closed for good (4409)');
    await a.unroute('**/api/v1/answers/**');
    assert.equal(await question(a, 'q4').locator('input').isDisabled(), true, 'editing is locked');
    await a.screenshot({ path: artifact(screenshot) });
    await a.getByRole('button', { name: 'Sign in again on this device' }).click();
    await a.getByLabel('Access code').fill(credentials.accessCode);
    await a.getByRole('button', { name: 'Start the exam' }).click();
    await a.waitForFunction((e) => window.examClient?.deviceEpoch > e && window.examClient.isEditable(), tabletEpoch);
    await waitSynced(a);
    const sessionId = await a.evaluate(() => window.examClient.sessionId);
    // The tablet's newer q4 stands; the laptop's q1 (never acknowledged) is kept and sent.
    assert.deepEqual(await serverAnswers(sessionId), { q1: '4', q4: 'Rome' });
    assert.deepEqual(await readPageAnswers(a), { q1: '4', q4: 'Rome' });
  } finally {
    await laptop.close();
    await tablet.close();
  }
}
