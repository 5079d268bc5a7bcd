/**
 * Staff sign in to the proctor console through a real identity provider — the Keycloak of `./exam up --idp` (realm
 * exam-suite, idp/exam-suite-realm.json) — in headless Chromium, against the RUNNING SUITE whose services verify the
 * realm's tokens by discovery and JWKS: authorization code + PKCE, who is signed in, the access token renewed, sign-out
 * ending the provider's session; roles and scope (an author's exam belongs to her organisation; the proctor assigned to
 * it sees only that exam in the console and pauses a session there; its grader may not pause; an author of another
 * organisation gets 404); and a rotation of the realm's signing key, after which tokens signed by the old key and by the
 * new one are both accepted, with no restart.
 *
 * Needs EXAM_E2E_IDP_ISSUER (the realm's issuer) and the console's origin the realm was imported with
 * (EXAM_E2E_CONSOLE_PORT, 8080); the staff and admin passwords are read from .exam/idp. Skips without them, fails with
 * EXAM_E2E_REQUIRE_IDP=1 (./exam test e2e sets it).
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { launch, artifact, servePage } from './support/browser.mjs';
import { REPO, upstreams, suiteSkip } from './support/suite.mjs';

const ISSUER = process.env.EXAM_E2E_IDP_ISSUER || null;
const PORT = Number(process.env.EXAM_E2E_CONSOLE_PORT || 8080);
const IDP_DIR = path.join(REPO, '.exam', 'idp');
const secret = (name) => readFileSync(path.join(IDP_DIR, name), 'utf8').trim();

let skip = await suiteSkip();
if (!skip && (!ISSUER || !existsSync(path.join(IDP_DIR, 'staff-password')))) {
  if (process.env.EXAM_E2E_REQUIRE_IDP === '1') throw new Error('sign-in e2e required but EXAM_E2E_IDP_ISSUER or .exam/idp is missing (./exam up --idp)');
  skip = 'no identity provider (./exam up --idp, then EXAM_E2E_IDP_ISSUER=http://127.0.0.1:8180/realms/exam-suite)';
}

let browser;
let pageServer;
let baseUrl;

before(async () => {
  if (skip) return;
  browser = await launch();
  // ./exam up --idp serves the page there already (with the same settings): use it; else serve one on that port
  const running = await fetch(`http://127.0.0.1:${PORT}/console/config.json`).then((r) => r.json()).catch(() => null);
  if (running?.issuer === ISSUER) baseUrl = `http://127.0.0.1:${PORT}`;
  else ({ server: pageServer, baseUrl } = await servePage(upstreams, { port: PORT, consoleConfig: { issuer: ISSUER, clientId: 'exam-console' } }));
});

after(async () => {
  await browser?.close();
  pageServer?.close();
});

async function tokenFor(username) {
  const res = await fetch(`${ISSUER}/protocol/openid-connect/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'password', client_id: 'exam-cli', username, password: secret('staff-password') }),
  });
  assert.equal(res.status, 200, `a token for ${username}`);
  return (await res.json()).access_token;
}

const ORIGIN = ISSUER ? new URL(ISSUER).origin : null;

async function adminToken() {
  const res = await fetch(`${ORIGIN}/realms/master/protocol/openid-connect/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'password', client_id: 'admin-cli', username: 'admin', password: secret('admin-password') }),
  });
  assert.equal(res.status, 200, 'the master realm admin signs in');
  return (await res.json()).access_token;
}

/** The realm user's assigned exams become exactly EXAM_IDS (the tokens' `exams` claim), as an organisation's admin would set them. */
async function assign(username, ...examIds) {
  const admin = { authorization: `Bearer ${await adminToken()}` };
  const [user] = await fetch(`${ORIGIN}/admin/realms/exam-suite/users?username=${username}&exact=true`, { headers: admin }).then((r) => r.json());
  const res = await fetch(`${ORIGIN}/admin/realms/exam-suite/users/${user.id}`, {
    method: 'PUT',
    headers: { ...admin, 'content-type': 'application/json' },
    body: JSON.stringify({ username: user.username, email: user.email, firstName: user.firstName, lastName: user.lastName,
      attributes: { ...(user.attributes || {}), exams: examIds } }),
  });
  assert.equal(res.status, 204, `assigning ${username}`);
}

async function as(token, method, urlPath, body) {
  const res = await fetch(`${upstreams.session}${urlPath}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

async function signInAs(page, username) {
  await page.goto(`${baseUrl}/console/`);
  await page.getByRole('button', { name: 'Sign in with your organisation' }).click();
  await page.locator('#username').fill(username);
  await page.locator('#password').fill(secret('staff-password'));
  await page.locator('#kc-login').click();
  await page.waitForURL((url) => url.href.startsWith(`${baseUrl}/console/`));
}

const kidOf = (jwt) => JSON.parse(Buffer.from(jwt.split('.')[0], 'base64url').toString()).kid;

async function examsWith(token) {
  const res = await fetch(`${upstreams.session}/api/v1/exams?limit=1`, { headers: { authorization: `Bearer ${token}` } });
  await res.arrayBuffer();
  return res.status;
}

test('console: a proctor signs in through the identity provider (code + PKCE), is named, stays signed in, signs out', { skip }, async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    await page.goto(`${baseUrl}/console/`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    assert.equal(await page.getByRole('textbox', { name: 'Operator token' }).isVisible(), false, 'no pasted tokens with a provider');
    await page.getByRole('button', { name: 'Sign in with your organisation' }).click();
    await page.waitForURL((url) => url.href.startsWith(ISSUER));
    const authorize = new URL(page.url());
    assert.equal(authorize.searchParams.get('code_challenge_method'), 'S256');
    await page.locator('#username').fill('priya');
    await page.locator('#password').fill(secret('staff-password'));
    await page.locator('#kc-login').click();
    await page.waitForURL((url) => url.href.startsWith(`${baseUrl}/console/`));
    await page.getByText('Signed in as Priya Proctor (proctor)').waitFor();
    await page.locator('#exams').waitFor({ state: 'visible' });
    assert.equal(new URL(page.url()).search, '', 'the code is gone from the address bar');
    await page.screenshot({ path: artifact('console-signin.png') });

    // the access token is renewed with the refresh token: a new one, still accepted
    const before = await page.evaluate(() => JSON.parse(sessionStorage.getItem('examConsole.oidcTokens')));
    assert.ok(before.refreshToken, 'a refresh token is kept');
    const renewed = await page.evaluate(async () => {
      const { createOidc } = await import('/console/oidc.js');
      const config = await (await fetch('/console/config.json')).json();
      return (await createOidc(config).renew()).accessToken;
    });
    assert.notEqual(renewed, before.accessToken);
    assert.equal(await examsWith(renewed), 200);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL((url) => url.href.startsWith(`${baseUrl}/console/`));
    await page.getByRole('button', { name: 'Sign in with your organisation' }).waitFor();
    assert.equal(await page.evaluate(() => sessionStorage.getItem('examConsole.oidcTokens')), null);
    // the provider's session ended too: signing in again asks for the password
    await page.getByRole('button', { name: 'Sign in with your organisation' }).click();
    await page.locator('#password').waitFor();
  } finally {
    await context.close();
  }
});

test('roles and scope: the assigned proctor sees only her exam and pauses a session in the console; its grader may not; another organisation gets 404; she reads the exam without its keys', { skip }, async () => {
  const author = await tokenFor('arthur');
  const now = Date.now();
  const created = await as(author, 'POST', '/api/v1/exams', {
    title: `Scoped exam ${now}`, opensAt: new Date(now - 3600_000).toISOString(), closesAt: new Date(now + 7200_000).toISOString(),
    durationSeconds: 3600, questions: [{ id: 'q1', type: 'SINGLE', prompt: '2+2?', options: ['3', '4'], points: 1, key: '4' }],
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const examId = created.body.examId;
  const candidateId = `c-${now}`;
  const enrolled = await as(author, 'POST', `/api/v1/exams/${examId}/candidates`, { candidates: [{ candidateId }] });
  assert.equal(enrolled.status, 201);
  const started = await fetch(`${upstreams.session}/api/v1/sessions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ examId, candidateId, accessCode: enrolled.body.candidates[0].accessCode }),
  }).then((r) => r.json());
  assert.ok(started.sessionId);

  assert.equal((await as(await tokenFor('olga'), 'GET', `/api/v1/exams/${examId}`)).status, 404, 'an author of another organisation');
  await assign('priya', examId);
  await assign('greg', examId);
  assert.equal((await as(await tokenFor('greg'), 'POST', `/api/v1/sessions/${started.sessionId}/pause`)).status, 403, 'a grader may not pause');

  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    await signInAs(page, 'priya');
    await page.locator('#exams-body tr').first().waitFor();
    const shown = await page.locator('#exams-body tr').evaluateAll((rows) => rows.map((r) => r.dataset.examId));
    assert.deepEqual(shown, [examId], 'only her assigned exam');
    await page.evaluate((id) => { location.hash = `#/exams/${id}`; }, examId);
    await page.getByRole('button', { name: `Pause ${candidateId}` }).click();
    await page.getByRole('button', { name: 'Pause the session' }).click();
    await page.locator('#status').filter({ hasText: `${candidateId} is` }).waitFor();
    await page.getByText('Questions (1)').waitFor(); // a proctor reads the exam without its keys
    await page.screenshot({ path: artifact('console-proctor-scoped.png') });
    const session = await as(await tokenFor('priya'), 'GET', `/api/v1/sessions/${started.sessionId}`);
    assert.equal(session.body.status, 'PAUSED');
    const audit = await as(await tokenFor('ada'), 'GET', `/api/v1/audit?sessionId=${started.sessionId}`);
    assert.equal(audit.status, 200);
    assert.ok(audit.body.entries.some((e) => e.action === 'session.paused'), 'the pause is in the organisation admin\'s audit log');
  } finally {
    await context.close();
  }
});

/** One staff read on each service: ids nobody has, so a verified token gets 404 (or 403), never 401. */
const READS = [
  ['session', '/api/v1/exams?limit=1'],
  ['answer', `/api/v1/answers/${crypto.randomUUID()}/history`],
  ['submission', `/api/v1/submissions/${crypto.randomUUID()}`],
  ['grading', `/api/v1/results/${crypto.randomUUID()}`],
];

/**
 * A read as a client of the contract makes it: a 503 with Retry-After (a request past its deadline on a busy machine,
 * docs/api.md) is asked again after the delay, up to three times in all; each answer is counted, the last as it is.
 */
async function read(token, [service, urlPath], statuses) {
  for (let attempt = 1; ; attempt++) {
    const res = await fetch(`${upstreams[service]}${urlPath}`, { headers: { authorization: `Bearer ${token}` } });
    await res.arrayBuffer();
    const retryAfter = res.headers.get('retry-after');
    const shed = res.status === 503 && retryAfter && attempt < 3;
    const key = shed ? `${service} 503 retry-after` : `${service} ${res.status}`;
    statuses.set(key, (statuses.get(key) || 0) + 1);
    if (shed) {
      await new Promise((r) => setTimeout(r, Number(retryAfter) * 1000));
      continue;
    }
    return res.status;
  }
}

test('a rotation of the realm key under load is picked up with no restart: not one token of the old key or of the new one is refused', { skip }, async () => {
  const oldToken = await tokenFor('greg');
  for (const target of READS) assert.notEqual(await read(oldToken, target, new Map()), 401, `${target[0]} before the rotation`);
  const statuses = new Map();
  const tokens = [oldToken];
  let running = true;
  // eight readers per service all through the rotation, each with the newest token half of the time
  const readers = READS.flatMap((target) => Array.from({ length: 8 }, async (_, i) => {
    while (running) await read(tokens[i % 2 === 0 ? 0 : tokens.length - 1], target, statuses);
  }));
  await new Promise((r) => setTimeout(r, 1000));
  const admin = { access_token: await adminToken() };
  const realm = await fetch(`${ORIGIN}/admin/realms/exam-suite`, { headers: { authorization: `Bearer ${admin.access_token}` } })
    .then((r) => r.json());
  // a new RSA key with a higher priority, as the provider's routine rotation makes one: new tokens are signed with it,
  // the old key stays for verifying
  const created = await fetch(`${ORIGIN}/admin/realms/exam-suite/components`, {
    method: 'POST',
    headers: { authorization: `Bearer ${admin.access_token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      name: `rotated-${Date.now()}`, providerId: 'rsa-generated', providerType: 'org.keycloak.keys.KeyProvider', parentId: realm.id,
      config: { priority: [String(Date.now())], keySize: ['2048'], algorithm: ['RS256'], active: ['true'], enabled: ['true'] },
    }),
  });
  assert.equal(created.status, 201);
  const newToken = await tokenFor('greg');
  assert.notEqual(kidOf(newToken), kidOf(oldToken), 'the new token names the new key');
  // the new key's first tokens arrive together at every service, while it fetches the JWKS
  tokens.push(newToken);
  const burst = await Promise.all(READS.flatMap((target) => Array.from({ length: 32 }, () => read(newToken, target, statuses))));
  await new Promise((r) => setTimeout(r, 2000));
  running = false;
  await Promise.all(readers);
  const summary = [...statuses].sort().map(([k, n]) => `${k}: ${n}`).join(', ');
  console.log(`realm rotation under load: ${summary}`);
  const refused = [...statuses].filter(([k]) => k.endsWith(' 401')).reduce((n, [, c]) => n + c, 0);
  assert.equal(refused, 0, `tokens refused during the rotation (${summary})`);
  assert.equal(burst.length, 128);
  // shed then answered is the contract; a 5xx a retry did not mend, or one without Retry-After, is a fault
  for (const [key] of statuses) assert.ok(!/ 5\d\d$/.test(key), `no server error during the rotation (${summary})`);
  assert.ok(burst.every((status) => status < 500), `every read of the burst answered after its retries (${summary})`);
});
