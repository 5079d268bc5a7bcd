/**
 * examples/react/ExamPage.jsx as a frontend would ship it: compiled with esbuild (JSX, React 19,
 * the SDK imported by its package name), served under the reference page's strict CSP, in real
 * Chromium against the FAKE API — start, autosave, reload (resume from IndexedDB), submit once.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { FakeExamApi, SAMPLE_QUESTIONS } from '../test/support/fake-api.mjs';
import { createExamClientServer } from '../server.mjs';
import { launch, chromiumMissing } from './support/browser.mjs';

const CLIENT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const EXAMPLE = path.join(CLIENT, 'examples', 'react');
const skip = chromiumMissing();
let fake;
let fakeServer;
let pageServer;
let baseUrl;
let browser;
let root;

// What an app's entry point would be: the component with stable credentials from the address.
const ENTRY = `
import { createRoot } from 'react-dom/client';
import { ExamPage } from './ExamPage.jsx';
const q = new URLSearchParams(location.search);
const credentials = { examId: q.get('examId'), candidateId: q.get('candidateId'), accessCode: q.get('accessCode') };
const options = { baseUrl: '' };
createRoot(document.getElementById('root')).render(<ExamPage credentials={credentials} options={options} />);
`;

before(async () => {
  if (skip) return;
  root = mkdtempSync(path.join(os.tmpdir(), 'react-example-'));
  mkdirSync(path.join(root, 'page'));
  await build({
    stdin: { contents: ENTRY, loader: 'jsx', resolveDir: EXAMPLE, sourcefile: 'main.jsx' },
    bundle: true,
    format: 'esm',
    jsx: 'automatic',
    alias: { '@examsuite/exam-client': path.join(CLIENT, 'sdk', 'index.js') },
    nodePaths: [path.join(CLIENT, 'node_modules')],
    define: { 'process.env.NODE_ENV': '"production"' },
    outfile: path.join(root, 'page', 'app.js'),
    logLevel: 'error',
  });
  writeFileSync(path.join(root, 'page', 'index.html'),
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>React example</title>'
    + '<script type="module" src="/app.js"></script></head><body><div id="root"></div></body></html>');
  fake = new FakeExamApi();
  const listening = await fake.listen(0);
  fakeServer = listening.server;
  const api = `http://127.0.0.1:${listening.port}`;
  pageServer = createExamClientServer({ upstreams: { session: api, answer: api, submission: api, grading: api }, root });
  await new Promise((r) => pageServer.listen(0, '127.0.0.1', r));
  baseUrl = `http://127.0.0.1:${pageServer.address().port}`;
  browser = await launch();
});

after(async () => {
  await browser?.close();
  pageServer?.close();
  fakeServer?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

test('the React example starts, autosaves, survives a reload and submits once (fake API)', { skip }, async () => {
  const examId = fake.createExam({ examId: 'react-example', questions: SAMPLE_QUESTIONS.filter((q) => q.type === 'FILL') });
  const [fill] = SAMPLE_QUESTIONS.filter((q) => q.type === 'FILL');
  const context = await browser.newContext();
  const page = await context.newPage();
  const violations = [];
  page.on('console', (m) => { if (/Content Security Policy/i.test(m.text())) violations.push(m.text()); });
  const pageErrors = [];
  page.on('pageerror', (e) => pageErrors.push(e.message));

  await page.goto(`${baseUrl}/?examId=${examId}&candidateId=c-001&accessCode=code-001`);
  const input = page.getByRole('textbox', { name: fill.prompt });
  await input.fill('Paris');
  const sessionId = [...fake.sessions.values()].find((s) => s.examId === examId).sessionId;
  for (const until = Date.now() + 30_000; fake.currentAnswers(sessionId)[fill.id] !== 'Paris';) {
    assert.ok(Date.now() < until, 'the change reached the server');
    await new Promise((r) => setTimeout(r, 100));
  }
  await page.getByText('All answers saved.').waitFor({ timeout: 30_000 });

  await page.reload();
  await page.getByRole('textbox', { name: fill.prompt }).waitFor();
  assert.equal(await page.getByRole('textbox', { name: fill.prompt }).inputValue(), 'Paris', 'resumed from this browser');
  assert.equal(fake.sessions.get(sessionId).epoch, 1, 'resume() reopened the session without a new sign-in');

  await page.getByRole('button', { name: 'Submit' }).click();
  await page.getByText(/^Submitted\. Receipt: /).waitFor({ timeout: 30_000 });
  const papers = fake.papersFor(sessionId);
  assert.equal(papers.length, 1);
  assert.match(await page.getByText(/^Submitted\. Receipt: /).textContent(), new RegExp(papers[0].paperId));
  assert.deepEqual(violations, [], 'the strict CSP held');
  assert.deepEqual(pageErrors, []);
  await context.close();
});
