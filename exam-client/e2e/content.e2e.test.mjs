/**
 * Rich content and the candidate's overview in real headless Chromium, the page served by
 * server.mjs (its CSP) in front of the FAKE API (test/support/fake-api.mjs), which — unlike
 * session-service — stores any prompt: so these tests show the page's own line of defence
 * (markdown-it without raw HTML, DOMPurify, KaTeX without trust and with limits) against
 * content the server would have refused.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHash } from 'node:crypto';
import { FakeExamApi, SAMPLE_QUESTIONS } from '../test/support/fake-api.mjs';
import { launch, chromiumMissing, artifact, servePage } from './support/browser.mjs';
import { signIn, question, newExamContext, waitSynced } from './support/scenario.mjs';

const skip = chromiumMissing();
const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
let fake;
let fakeServer;
let pageServer;
let baseUrl;
let browser;

/** EXAM_E2E_DOC_SCREENSHOTS=1 writes the screenshots docs/ shows; otherwise into e2e/artifacts. */
function docScreenshot(name) {
  if (process.env.EXAM_E2E_DOC_SCREENSHOTS !== '1') return artifact(name);
  const dir = path.join(REPO, 'docs', 'images');
  mkdirSync(dir, { recursive: true });
  return path.join(dir, name);
}

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

/** A page that records what must never happen: dialogs, requests off the page's origin, CSP violations, page errors. */
async function watchedPage(context) {
  const page = await context.newPage();
  const seen = { dialogs: [], foreign: [], errors: [] };
  page.on('dialog', (d) => {
    seen.dialogs.push(d.message());
    d.dismiss().catch(() => {});
  });
  page.on('request', (r) => {
    // the page's own origin, data: (KaTeX's fonts) and the page's own blob: URLs (figures) only
    if (!r.url().startsWith(baseUrl) && !r.url().startsWith('data:') && !r.url().startsWith(`blob:${baseUrl}/`)) seen.foreign.push(r.url());
  });
  page.on('pageerror', (e) => seen.errors.push(String(e)));
  await page.addInitScript(() => {
    window.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__csp.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  return { page, seen };
}

const MATH_AND_CODE = [
  'Let $f(x) = x^2 - 5x + 6$. Its roots are given by',
  '',
  '$$x = \\frac{-b \\pm \\sqrt{b^2 - 4ac}}{2a}$$',
  '',
  'What does this **Python** function return for `roots(1, -5, 6)`?',
  '',
  '```python',
  'def roots(a, b, c):',
  '    d = (b * b - 4 * a * c) ** 0.5',
  '    return sorted([(-b - d) / (2 * a), (-b + d) / (2 * a)])',
  '```',
].join('\n');

const HOSTILE = [
  '<script>window.__pwned = "script"</script>',
  '<img src="http://127.0.0.2:9/img.png" onerror="window.__pwned = \'img\'">',
  '[a javascript link](javascript:window.__pwned=\'link\')',
  '<javascript:window.__pwned=\'autolink\'>',
  '[a data link](data:text/html;base64,PHNjcmlwdD53aW5kb3cuX19wd25lZD0xPC9zY3JpcHQ+)',
  '<svg onload="window.__pwned = \'svg\'"><script>window.__pwned = "svg-script"</script></svg>',
  '<math><mtext><table><mglyph><style><img src=x onerror="window.__pwned=\'mxss\'"></style></mglyph></table></mtext></math>',
  '<style>body { display: none !important }</style><div style="position:fixed;inset:0;background:red">covered</div>',
  '![tracker](http://127.0.0.2:9/pixel.png)',
  '```"><img src=x onerror="window.__pwned=\'fence\'">',
  'code',
  '```',
  '$\\def\\a{\\b\\b\\b\\b}\\def\\b{\\c\\c\\c\\c}\\def\\c{\\d\\d\\d\\d}\\def\\d{\\e\\e\\e\\e}\\def\\e{xxxxxxxx}\\a$ (a macro bomb)',
  '$\\def\\loop{\\loop\\loop}\\loop$ (an endless one)',
  '$\\href{javascript:window.__pwned=\'tex\'}{click}$ and $\\url{http://127.0.0.2:9/u}$',
  '$\\htmlStyle{position:fixed;inset:0;background:red}{cover}$ and $\\rule{5000em}{5000em}$',
  '$\\includegraphics{http://127.0.0.2:9/g.png}$',
].join('\n\n');

test('a Markdown question: math drawn by KaTeX, code coloured, under the strict CSP (fake API)', { skip }, async () => {
  const examId = fake.createExam({
    examId: 'rich',
    questions: [
      { id: 'm1', type: 'ESSAY', format: 'markdown', prompt: MATH_AND_CODE, points: 4 },
      { id: 'm2', type: 'SINGLE', format: 'markdown', prompt: 'Which is the **discriminant** of $ax^2+bx+c$?', options: ['$b^2 - 4ac$', '$\\sqrt{b^2 - 4ac}$', '`b*b - 4*a*c` in code'], points: 1, key: '$b^2 - 4ac$' },
      { id: 't1', type: 'FILL', prompt: 'Plain text stays text: $x$ and **not bold** <b>nor this</b>', points: 1, key: ['x'] },
    ],
  });
  const context = await newExamContext(browser);
  const { page, seen } = await watchedPage(context);
  await signIn(page, baseUrl, { examId, candidateId: 'c-001', accessCode: 'code-001' });
  const prompt = question(page, 'm1').locator('.prompt');
  await prompt.locator('.katex').first().waitFor();
  assert.equal(await prompt.locator('.math-inline .katex').count(), 1, 'the inline formula is drawn');
  assert.equal(await prompt.locator('.math-display .katex-display').count(), 1, 'the display formula is drawn');
  assert.equal(await prompt.locator('math annotation[encoding="application/x-tex"]').first().textContent(), 'f(x) = x^2 - 5x + 6', 'MathML for screen readers');
  assert.equal(await prompt.locator('pre code.language-python.hljs .hljs-keyword').first().textContent(), 'def', 'code coloured by highlight.js');
  assert.equal(await prompt.locator('strong').textContent(), 'Python');
  // KaTeX's fonts came from the page's origin and were applied
  const fontFamily = await prompt.locator('.math-display .katex .mord').first().evaluate((n) => getComputedStyle(n).fontFamily);
  assert.match(fontFamily, /KaTeX/);
  await page.waitForFunction(() => document.fonts.check('16px KaTeX_Main'));
  // markdown options: the answer is still the option's own text
  await question(page, 'm2').locator('label').filter({ hasText: 'in code' }).locator('code').waitFor();
  await question(page, 'm2').getByRole('radio').first().check();
  await page.waitForFunction(() => window.examClient.answer('m2') === '$b^2 - 4ac$');
  // plain text is still only text
  assert.equal(await question(page, 't1').locator('.prompt').textContent(), 'Plain text stays text: $x$ and **not bold** <b>nor this</b>');
  assert.equal(await question(page, 't1').locator('.prompt *').count(), 0);
  await waitSynced(page);
  assert.deepEqual(await page.evaluate(() => window.__csp), [], 'no CSP violation: no inline style, no eval');
  assert.deepEqual(seen, { dialogs: [], foreign: [], errors: [] });
  await page.setViewportSize({ width: 900, height: 900 });
  await question(page, 'm1').screenshot({ path: docScreenshot('rich-question-math-code.png') });
  await context.close();
});

test('a figure in a question: fetched with the session token, shown from a blob: URL with its alt text; an image from elsewhere is only its alt text (fake API)', { skip }, async () => {
  const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="160" height="100"><path d="M10 90 L150 90 L10 10 Z" fill="#cde" stroke="#123"/></svg>';
  const figureId = createHash('sha256').update(svg).digest('hex');
  const examId = fake.createExam({
    examId: 'figures',
    questions: [
      { id: 'f1', type: 'SINGLE', format: 'markdown', prompt: `The triangle:\n\n![a right triangle, legs 140 and 80](figure:${figureId})\n\nand ![tracker](http://127.0.0.2:9/pixel.png)`, options: ['right', 'acute'], points: 1, key: 'right' },
    ],
  });
  fake.addFigure(examId, figureId, 'image/svg+xml', Buffer.from(svg));
  const context = await newExamContext(browser);
  const { page, seen } = await watchedPage(context);
  await signIn(page, baseUrl, { examId, candidateId: 'c-001', accessCode: 'code-001' });
  const img = question(page, 'f1').locator('.prompt img.figure');
  await page.waitForFunction(() => document.querySelector('.prompt img.figure')?.complete && document.querySelector('.prompt img.figure').naturalWidth > 0);
  assert.equal(await img.getAttribute('alt'), 'a right triangle, legs 140 and 80');
  assert.match(await img.getAttribute('src'), /^blob:/, 'shown from the bytes the SDK fetched, not from a URL carrying the token');
  assert.equal(await img.evaluate((n) => n.naturalWidth), 160);
  assert.equal(await question(page, 'f1').locator('.prompt img').count(), 1, 'the image from elsewhere is not an <img>');
  assert.match(await question(page, 'f1').locator('.prompt').textContent(), /and tracker/);
  const asked = fake.log.filter((r) => r.path.endsWith(`/figures/${figureId}`));
  assert.ok(asked.length >= 1 && asked.every((r) => /^Bearer /.test(r.headers.authorization || '')), 'fetched with the session token');
  await waitSynced(page);
  assert.deepEqual(await page.evaluate(() => window.__csp), [], 'blob: images are within the CSP');
  assert.deepEqual(seen, { dialogs: [], foreign: [], errors: [] });
  await context.close();
});

test('hostile Markdown: nothing runs, nothing loads from elsewhere, nothing covers the page, and it stays usable (fake API)', { skip }, async () => {
  const examId = fake.createExam({
    examId: 'hostile',
    questions: [
      { id: 'h1', type: 'ESSAY', format: 'markdown', prompt: HOSTILE, points: 1 },
      { id: 'h2', type: 'SINGLE', format: 'markdown', prompt: 'Pick one', options: ['<img src=x onerror="window.__pwned=\'option\'">', '[x](javascript:window.__pwned=\'option-link\')', '$\\def\\x{\\x\\x}\\x$'], points: 1, key: '[x](javascript:window.__pwned=\'option-link\')' },
      { id: 'h3', type: 'FILL', prompt: 'Still usable?', points: 1, key: ['yes'] },
    ],
  });
  const context = await newExamContext(browser);
  const { page, seen } = await watchedPage(context);
  await signIn(page, baseUrl, { examId, candidateId: 'c-001', accessCode: 'code-001' });
  const h1 = question(page, 'h1');
  await h1.locator('.prompt p').first().waitFor();
  // raw HTML is shown as text, never as elements
  assert.match(await h1.locator('.prompt').textContent(), /<script>window.__pwned = "script"<\/script>/);
  assert.equal(await page.locator('.prompt script, .prompt img, .prompt svg, .prompt style, .prompt iframe, .prompt [style*="fixed"], .prompt [onerror], .prompt [onload]').count(), 0);
  assert.equal(await page.locator('.prompt math mglyph, .prompt math table').count(), 0);
  // no link to javascript: or data:, every link that is there opens elsewhere
  assert.equal(await page.locator('.prompt a[href^="javascript" i], .prompt a[href^="data" i], label a[href^="javascript" i]').count(), 0);
  // the macro bombs and trust-requiring commands: shown as their source, drawn nothing
  const failed = await h1.locator('.math-error').allTextContents();
  assert.ok(failed.some((t) => t.startsWith('\\def\\a{\\b\\b\\b\\b}')), 'the exponential macro bomb stopped (maxExpand)');
  assert.ok(failed.some((t) => t.startsWith('\\def\\loop')), 'the endless macro stopped');
  assert.equal(await page.locator('.katex a, .katex img, .katex [style*="fixed"]').count(), 0, 'no \\href, \\includegraphics or \\htmlStyle output');
  const ruleBox = await h1.locator('.katex .rule').first().boundingBox().catch(() => null);
  assert.ok(!ruleBox || (ruleBox.width < 400 && ruleBox.height < 400), `\\rule capped by maxSize: ${JSON.stringify(ruleBox)}`);
  // click everything clickable in the hostile question: nothing runs
  for (const link of await h1.locator('.prompt a').all()) await link.click({ modifiers: ['Control'] }).catch(() => {});
  await question(page, 'h2').getByRole('radio').nth(1).check();
  // the page still works: visible, answerable, saving, navigable
  assert.equal(await page.locator('body').isVisible(), true);
  assert.equal(await page.evaluate(() => getComputedStyle(document.body).display), 'block');
  await page.getByRole('textbox', { name: 'Still usable?' }).fill('yes');
  await waitSynced(page);
  assert.equal(fake.currentAnswers(await page.evaluate(() => window.examClient.sessionId)).h3, 'yes');
  assert.match(await page.locator('#progress').textContent(), /^2 of 3 answered/);
  assert.equal(await page.evaluate(() => window.__pwned), undefined, 'no payload ran');
  assert.deepEqual(seen.dialogs, [], 'no dialog');
  assert.deepEqual(seen.foreign, [], 'no request off the page\'s origin');
  assert.deepEqual(seen.errors, [], 'no page error');
  await page.screenshot({ path: artifact('hostile-content.png'), fullPage: true });
  await context.close();
});

test('the navigator, flags for review and the submit confirmation, by keyboard and for screen readers (fake API)', { skip }, async () => {
  const questions = [...SAMPLE_QUESTIONS, ...Array.from({ length: 6 }, (_, i) => ({ id: `e${i + 7}`, type: 'ESSAY', prompt: `Essay ${i + 7}`, points: 1 }))];
  const examId = fake.createExam({ examId: 'overview', questions });
  const context = await newExamContext(browser);
  const { page } = await watchedPage(context);
  await signIn(page, baseUrl, { examId, candidateId: 'c-001', accessCode: 'code-001' });
  const nav = page.getByRole('navigation', { name: 'Questions' });
  assert.equal(await nav.getByRole('link').count(), 12);
  assert.equal(await page.locator('#progress').textContent(), '0 of 12 answered');
  assert.equal(await page.locator('#progress').getAttribute('aria-live'), 'polite');
  assert.equal(await nav.getByRole('link', { name: 'Question 4: not answered' }).count(), 1);

  await page.getByRole('textbox', { name: 'Capital of France' }).fill('Paris');
  await question(page, 'q1').getByRole('radio', { name: '4' }).check();
  await nav.getByRole('link', { name: 'Question 4: answered' }).waitFor();
  // the radio's change may be drawn a moment after the text's (a CI run read "1 of 12" here)
  await page.locator('#progress').filter({ hasText: /^2 of 12 answered$/ }).waitFor({ timeout: 5000 });
  assert.equal(await page.locator('#progress').textContent(), '2 of 12 answered');

  // flag by keyboard: Tab to the flag of question 3, Space; announced, pressed, in the navigator
  await question(page, 'q3').getByRole('radio', { name: 'True' }).focus();
  await page.keyboard.press('Shift+Tab');
  assert.equal(await page.evaluate(() => document.activeElement.getAttribute('aria-label')), 'Flag question 3 for review');
  await page.keyboard.press('Space');
  await page.getByRole('button', { name: 'Flag question 3 for review', pressed: true }).waitFor();
  assert.equal(await page.locator('#announce').textContent(), 'Question 3 flagged for review.');
  await nav.getByRole('link', { name: 'Question 3: not answered, flagged for review' }).waitFor();
  await page.getByRole('button', { name: 'Flag question 11 for review' }).click();
  await page.locator('#progress').filter({ hasText: '2 of 12 answered, 2 flagged for review' }).waitFor();
  await waitSynced(page);
  const sessionId = await page.evaluate(() => window.examClient.sessionId);
  assert.deepEqual(fake.draftView(sessionId).answers['~review'].value, ['q3', 'e11'], 'the flags are in the server\'s draft');

  // jump with the keyboard: focus the navigator's link to question 10, Enter → question 10 has the focus
  await nav.getByRole('link', { name: /^Question 10:/ }).focus();
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'question-10');
  assert.equal(await nav.getByRole('link', { name: /^Question 10:/ }).getAttribute('aria-current'), 'true');

  // the confirmation lists what is open and what is flagged; Escape keeps the exam going
  await page.getByRole('button', { name: 'Submit my answers' }).click();
  const dialog = page.getByRole('dialog', { name: 'Submit your answers?' });
  await dialog.waitFor();
  assert.match(await dialog.getByText(/You have answered/).textContent(), /^You have answered 2 of 12 questions\. 10 questions have no answer\./);
  assert.deepEqual(await dialog.getByRole('region', { name: 'Not answered (10)' }).getByRole('listitem').allTextContents(),
    ['Question 2', 'Question 3', 'Question 5', 'Question 6', 'Question 7', 'Question 8', 'Question 9', 'Question 10', 'Question 11', 'Question 12']);
  assert.deepEqual(await dialog.getByRole('region', { name: 'Flagged for review (2)' }).getByRole('listitem').allTextContents(), ['Question 3', 'Question 11']);
  assert.equal(await page.evaluate(() => document.activeElement.textContent), 'Go back to the questions', 'focus starts on the safe choice');
  await page.screenshot({ path: docScreenshot('submit-confirmation.png') });
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'hidden' });
  assert.equal(await page.evaluate(() => window.examClient.state), 'editing');
  await page.getByRole('button', { name: 'Submit my answers' }).click();
  await dialog.getByRole('region', { name: 'Flagged for review (2)' }).getByRole('button', { name: 'Question 11' }).click();
  await dialog.waitFor({ state: 'hidden' });
  assert.equal(await page.evaluate(() => document.activeElement.id), 'question-11', 'a listed question is one click away');

  // a reload keeps the flags (from this device), and another device gets them (from the server)
  await page.reload();
  await page.waitForFunction(() => document.body.dataset.ready === 'exam');
  await page.getByRole('button', { name: 'Flag question 3 for review', pressed: true }).waitFor();
  const tablet = await newExamContext(browser);
  try {
    const other = await tablet.newPage();
    await signIn(other, baseUrl, { examId, candidateId: 'c-001', accessCode: 'code-001' });
    await other.getByRole('button', { name: 'Flag question 11 for review', pressed: true }).waitFor();
    await other.locator('#progress').filter({ hasText: '2 of 12 answered, 2 flagged for review' }).waitFor();
    await other.getByRole('button', { name: 'Flag question 3 for review' }).click(); // unflagged there
    await other.getByRole('button', { name: 'Flag question 3 for review', pressed: false }).waitFor();
    await waitSynced(other);
    assert.deepEqual(fake.draftView(sessionId).answers['~review'].value, ['e11']);
    // with nothing open any more, the confirmation says so and submits
    for (const id of ['q2', 'q3', 'q5', 'q6', 'e7', 'e8', 'e9', 'e10', 'e11', 'e12']) {
      const q = question(other, id);
      if (id === 'q2') await q.getByRole('checkbox').first().check();
      else if (id === 'q3') await q.getByRole('radio').first().check();
      else await q.locator('input, textarea').fill(id === 'q5' ? '3.14' : 'text');
    }
    await other.getByRole('button', { name: 'Flag question 11 for review' }).click();
    await waitSynced(other);
    await other.getByRole('button', { name: 'Submit my answers' }).click();
    const confirm = other.getByRole('dialog', { name: 'Submit your answers?' });
    assert.match(await confirm.getByText(/You have answered/).textContent(), /^You have answered 12 of 12 questions\. Once submitted/);
    assert.equal(await confirm.getByRole('region').count(), 0, 'nothing to list');
    await confirm.getByRole('button', { name: 'Submit now' }).click();
    await other.waitForFunction(() => document.body.dataset.view === 'done');
    assert.equal(fake.papersFor(sessionId)[0].answers['~review'], undefined, 'flags never reach the paper');
  } finally {
    await tablet.close();
  }
  await context.close();
});
