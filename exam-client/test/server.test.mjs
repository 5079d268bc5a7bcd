import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { createExamClientServer, consoleConfigFromEnv, routeApi } from '../server.mjs';

test('API prefixes are routed as the ingress routes them', () => {
  assert.equal(routeApi('/api/v1/exams'), 'session');
  assert.equal(routeApi('/api/v1/exams/e1/candidates'), 'session');
  assert.equal(routeApi('/api/v1/sessions/s1/heartbeat'), 'session');
  assert.equal(routeApi('/api/v1/audit'), 'session');
  assert.equal(routeApi('/api/v1/answers/s1'), 'answer');
  assert.equal(routeApi('/api/v1/submissions'), 'submission');
  assert.equal(routeApi('/api/v1/results/p1'), 'grading');
  assert.equal(routeApi('/api/v1/sagas/x'), 'grading');
  assert.equal(routeApi('/api/v1/archive/head'), 'grading');
  assert.equal(routeApi('/api/v1/answersheet'), null);
  assert.equal(routeApi('/internal/v1/answers/s1/seal'), null);
});

let upstream;
let upstreamSeen;
let server;
let base;
before(async () => {
  upstream = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      upstreamSeen = { method: req.method, url: req.url, headers: req.headers, body };
      res.writeHead(201, { 'content-type': 'application/json', 'retry-after': '3', date: 'Tue, 01 Dec 2026 08:00:00 GMT' });
      res.end('{"ok":true}');
    });
  });
  await new Promise((r) => upstream.listen(0, '127.0.0.1', r));
  const up = `http://127.0.0.1:${upstream.address().port}`;
  server = createExamClientServer({
    upstreams: { session: up, answer: up, submission: up, grading: 'http://127.0.0.1:1' },
    consoleConfig: { issuer: null, clientId: null },
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${server.address().port}`;
});
after(() => {
  server.close();
  upstream.close();
});

test('the proxy passes method, path, query, headers and body through, and the answer back', async () => {
  const res = await fetch(`${base}/api/v1/submissions?x=1`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': 'k-1', authorization: 'Bearer t' },
    body: '{"sessionId":"s"}',
  });
  assert.equal(res.status, 201);
  assert.equal(res.headers.get('retry-after'), '3');
  assert.equal(res.headers.get('date'), 'Tue, 01 Dec 2026 08:00:00 GMT');
  assert.deepEqual(await res.json(), { ok: true });
  assert.equal(upstreamSeen.method, 'POST');
  assert.equal(upstreamSeen.url, '/api/v1/submissions?x=1');
  assert.equal(upstreamSeen.headers['idempotency-key'], 'k-1');
  assert.equal(upstreamSeen.headers.authorization, 'Bearer t');
  assert.equal(upstreamSeen.body, '{"sessionId":"s"}');
});

test('an unreachable service is a 502 problem (retryable for the SDK), unknown API paths a 404 problem', async () => {
  const down = await fetch(`${base}/api/v1/results/p1`);
  assert.equal(down.status, 502);
  assert.equal(down.headers.get('content-type'), 'application/problem+json');
  assert.equal((await down.json()).code, 'UPSTREAM_UNAVAILABLE');
  const unknown = await fetch(`${base}/api/v1/nothing`);
  assert.equal(unknown.status, 404);
  assert.equal((await fetch(`${base}/internal/v1/papers/p`)).status, 404);
  assert.equal((await fetch(`${base}/q/health`)).status, 404);
});

test('static files: the page and the SDK, with a strict CSP; nothing outside them', async () => {
  const page = await fetch(`${base}/`);
  assert.equal(page.status, 200);
  assert.match(page.headers.get('content-type'), /text\/html/);
  assert.match(page.headers.get('content-security-policy'), /script-src 'self'/);
  assert.match(await page.text(), /aria-live="polite"/);
  const sdk = await fetch(`${base}/sdk/index.js`);
  assert.equal(sdk.status, 200);
  assert.match(sdk.headers.get('content-type'), /javascript/);
  for (const probe of ['/../package.json', '/%2e%2e/package.json', '/sdk/%2e%2e/server.mjs', '/%2e%2e%2fserver.mjs', '/..%5cserver.mjs']) {
    const res = await fetch(`${base}${probe}`);
    assert.equal(res.status, 404, probe);
  }
});

test('the proctor console is served at /console/ with the same CSP; /console redirects; nothing outside console/', async () => {
  const page = await fetch(`${base}/console/`);
  assert.equal(page.status, 200);
  assert.match(page.headers.get('content-type'), /text\/html/);
  assert.match(page.headers.get('content-security-policy'), /script-src 'self'/);
  assert.match(await page.text(), /Operator token/);
  const app = await fetch(`${base}/console/app.js`);
  assert.equal(app.status, 200);
  assert.match(app.headers.get('content-type'), /javascript/);
  const bare = await fetch(`${base}/console`, { redirect: 'manual' });
  assert.equal(bare.status, 308);
  assert.equal(bare.headers.get('location'), '/console/');
  for (const probe of ['/console/../server.mjs', '/console/%2e%2e/server.mjs', '/console/%2e%2e%2fpackage.json']) {
    const res = await fetch(`${base}${probe}`);
    assert.equal(res.status, 404, probe);
  }
});

test('the service worker keeps every SDK module for an offline reload (a module missing there breaks the page offline)', async () => {
  const { readFile, readdir } = await import('node:fs/promises');
  const sw = await readFile(new URL('../page/sw.js', import.meta.url), 'utf8');
  const cached = [...sw.matchAll(/'\/sdk\/([^']+\.js)'/g)].map((m) => m[1]).sort();
  const modules = (await readdir(new URL('../sdk/', import.meta.url))).filter((f) => f.endsWith('.js')).sort();
  assert.deepEqual(cached, modules);
});

test('the service worker keeps the page\'s own modules and the vendored scripts and styles; fonts are served as fonts', async () => {
  const { readFile, readdir } = await import('node:fs/promises');
  const sw = await readFile(new URL('../page/sw.js', import.meta.url), 'utf8');
  const pageModules = (await readdir(new URL('../page/', import.meta.url))).filter((f) => f.endsWith('.js') && f !== 'sw.js');
  for (const f of pageModules) assert.ok(sw.includes(`'/${f}'`), `sw.js keeps /${f}`);
  const { vendoredFiles } = await import('../scripts/vendor.mjs');
  for (const [, , to] of vendoredFiles()) {
    if (/\.(mjs|js|css)$/.test(to)) assert.ok(sw.includes(`'/vendor/${to}'`), `sw.js keeps /vendor/${to}`);
  }
  const server = createExamClientServer({ upstreams: { session: 'http://127.0.0.1:1', answer: 'http://127.0.0.1:1', submission: 'http://127.0.0.1:1', grading: 'http://127.0.0.1:1' } });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  try {
    const base = `http://127.0.0.1:${server.address().port}`;
    const font = await fetch(`${base}/vendor/katex/fonts/KaTeX_Main-Regular.woff2`);
    assert.equal(font.status, 200);
    assert.equal(font.headers.get('content-type'), 'font/woff2');
    assert.match(font.headers.get('content-security-policy'), /default-src 'self'/);
    const katexModule = await fetch(`${base}/vendor/katex/katex.mjs`);
    assert.match(katexModule.headers.get('content-type'), /javascript/);
  } finally {
    server.close();
  }
});

test('the console learns where staff sign in from /console/config.json; the provider is the only other origin it may connect to', async () => {
  const plain = await fetch(`${base}/console/config.json`);
  assert.equal(plain.status, 200);
  assert.deepEqual(await plain.json(), { issuer: null, clientId: null });
  assert.match(plain.headers.get('content-security-policy'), /connect-src 'self';/);

  const withIdp = createExamClientServer({
    upstreams: { session: 'http://127.0.0.1:1', answer: 'http://127.0.0.1:1', submission: 'http://127.0.0.1:1', grading: 'http://127.0.0.1:1' },
    consoleConfig: consoleConfigFromEnv({ EXAM_CONSOLE_ISSUER: 'https://idp.example.org/realms/school/', EXAM_CONSOLE_CLIENT_ID: 'console' }),
  });
  await new Promise((r) => withIdp.listen(0, '127.0.0.1', r));
  try {
    const res = await fetch(`http://127.0.0.1:${withIdp.address().port}/console/config.json`);
    assert.deepEqual(await res.json(), { issuer: 'https://idp.example.org/realms/school', clientId: 'console' });
    assert.match(res.headers.get('content-security-policy'), /connect-src 'self' https:\/\/idp\.example\.org;/);
  } finally {
    withIdp.close();
  }
  assert.throws(() => consoleConfigFromEnv({ EXAM_CONSOLE_ISSUER: 'http://idp.example.org/realms/school' }), /must be https/);
  assert.deepEqual(consoleConfigFromEnv({ EXAM_CONSOLE_ISSUER: 'http://127.0.0.1:8180/realms/exam-suite' }),
    { issuer: 'http://127.0.0.1:8180/realms/exam-suite', clientId: 'exam-console' });
});
