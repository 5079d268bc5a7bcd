#!/usr/bin/env node
/**
 * The reference exam page's own tiny server: serves page/ at /, sdk/ at /sdk/ and the proctor
 * console (console/) at /console/, and
 * reverse-proxies the public API to the four services exactly as the ingress routes it
 * (docs/api.md §2), so the page and the API share one origin (no CORS, readable Date headers):
 *
 *   /api/v1/exams|sessions|audit      → session-service     (EXAM_SESSION_URL,    http://127.0.0.1:8081)
 *   /api/v1/answers                   → answer-service      (EXAM_ANSWER_URL,     http://127.0.0.1:8082)
 *   /api/v1/submissions               → submission-service  (EXAM_SUBMISSION_URL, http://127.0.0.1:8083)
 *   /api/v1/results|sagas|archive     → grading-saga        (EXAM_GRADING_URL,    http://127.0.0.1:8084)
 *
 * /internal and /q are never proxied (as at the ingress). WebSocket upgrades
 * (/api/v1/sessions/{id}/live) are passed through. /console/config.json tells the console where staff sign in
 * (EXAM_CONSOLE_ISSUER, EXAM_CONSOLE_CLIENT_ID; see consoleConfigFromEnv). Port: EXAM_CLIENT_PORT or PORT (8080);
 * bind address: EXAM_CLIENT_HOST (127.0.0.1; 0.0.0.0 in a container).
 */
import http from 'node:http';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));

export const API_ROUTES = Object.freeze([
  [/^\/api\/v1\/(exams|sessions|audit)(\/|$)/, 'session'],
  [/^\/api\/v1\/answers(\/|$)/, 'answer'],
  [/^\/api\/v1\/submissions(\/|$)/, 'submission'],
  [/^\/api\/v1\/(results|sagas|archive)(\/|$)/, 'grading'],
]);

export function upstreamsFromEnv(env = process.env) {
  return {
    session: env.EXAM_SESSION_URL || 'http://127.0.0.1:8081',
    answer: env.EXAM_ANSWER_URL || 'http://127.0.0.1:8082',
    submission: env.EXAM_SUBMISSION_URL || 'http://127.0.0.1:8083',
    grading: env.EXAM_GRADING_URL || 'http://127.0.0.1:8084',
  };
}

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.ts': 'text/plain; charset=utf-8',
};

/** The page's CSP; the console's sign-in talks to the identity provider (token exchange and refresh), so its origin may be connected to. */
function contentSecurityPolicy(idpOrigin) {
  const connect = idpOrigin ? `'self' ${idpOrigin}` : "'self'";
  return `default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src ${connect}; worker-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'`;
}

/**
 * Where the console signs staff in (OpenID Connect, authorization code + PKCE): the provider's issuer and the
 * console's client id, from EXAM_CONSOLE_ISSUER and EXAM_CONSOLE_CLIENT_ID (./exam up --idp sets both). Without an
 * issuer the console asks for a pasted operator token (the local dev path).
 */
export function consoleConfigFromEnv(env = process.env) {
  const issuer = (env.EXAM_CONSOLE_ISSUER || '').replace(/\/+$/, '');
  if (!issuer) return { issuer: null, clientId: null };
  const parsed = new URL(issuer); // a wrong setting stops the server at start, not a sign-in later
  if (parsed.protocol !== 'https:' && !['127.0.0.1', 'localhost', '[::1]'].includes(parsed.hostname)) {
    throw new Error(`EXAM_CONSOLE_ISSUER must be https (plain http only on loopback): ${issuer}`);
  }
  return { issuer, clientId: env.EXAM_CONSOLE_CLIENT_ID || 'exam-console' };
}

const SECURITY_HEADERS = {
  'content-security-policy': contentSecurityPolicy(null),
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  // The service worker keeps its own copy for offline reloads; the network copy is always fresh.
  'cache-control': 'no-cache',
};

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade']);

function problem(res, status, code, detail) {
  res.writeHead(status, { 'content-type': 'application/problem+json' });
  res.end(JSON.stringify({ type: 'about:blank', title: code, status, detail, code }));
}

export function routeApi(urlPath) {
  for (const [pattern, service] of API_ROUTES) if (pattern.test(urlPath)) return service;
  return null;
}

/** Map a URL path to a file under page/ or sdk/, refusing anything outside them. */
function staticFile(root, urlPath) {
  let decoded;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  let base = path.join(root, 'page');
  let rel = decoded;
  if (decoded === '/sdk' || decoded.startsWith('/sdk/')) {
    base = path.join(root, 'sdk');
    rel = decoded.slice(4);
  } else if (decoded.startsWith('/console/')) {
    base = path.join(root, 'console');
    rel = decoded.slice(8);
  }
  if (rel === '' || rel.endsWith('/')) rel += 'index.html';
  const file = path.resolve(base, `.${path.posix.normalize(`/${rel}`)}`);
  if (file !== base && !file.startsWith(base + path.sep)) return null;
  return file;
}

function forwardHeaders(req, target) {
  const headers = {};
  for (const [k, v] of Object.entries(req.headers)) if (!HOP_BY_HOP.has(k)) headers[k] = v;
  headers.host = target.host;
  const prior = req.headers['x-forwarded-for'];
  headers['x-forwarded-for'] = prior ? `${prior}, ${req.socket.remoteAddress}` : req.socket.remoteAddress;
  headers['x-forwarded-host'] = req.headers.host || '';
  headers['x-forwarded-proto'] = 'http';
  return headers;
}

/**
 * @param {{upstreams?: Record<string,string>, root?: string}} [opts]
 * @returns {http.Server}
 */
export function createExamClientServer({ upstreams = upstreamsFromEnv(), root = HERE, consoleConfig = consoleConfigFromEnv() } = {}) {
  const pageHeaders = {
    ...SECURITY_HEADERS,
    'content-security-policy': contentSecurityPolicy(consoleConfig.issuer ? new URL(consoleConfig.issuer).origin : null),
  };
  const consoleJson = JSON.stringify(consoleConfig);
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url, 'http://local');
    if (url.pathname.startsWith('/api/')) {
      const service = routeApi(url.pathname);
      if (!service) return problem(res, 404, 'NOT_FOUND', `no API at ${url.pathname}`);
      const target = new URL(upstreams[service]);
      const upstream = http.request(
        { hostname: target.hostname, port: target.port, method: req.method, path: url.pathname + url.search, headers: forwardHeaders(req, target) },
        (up) => {
          const headers = {};
          for (const [k, v] of Object.entries(up.headers)) if (!HOP_BY_HOP.has(k)) headers[k] = v;
          res.writeHead(up.statusCode, headers);
          up.pipe(res);
          up.on('error', () => res.destroy());
        },
      );
      upstream.on('error', (err) => {
        if (res.headersSent) return res.destroy();
        problem(res, 502, 'UPSTREAM_UNAVAILABLE', `${service} unreachable: ${err.code || err.message}`);
      });
      req.on('aborted', () => upstream.destroy());
      req.pipe(upstream);
      return undefined;
    }
    if (url.pathname.startsWith('/internal') || url.pathname.startsWith('/q/')) return problem(res, 404, 'NOT_FOUND', 'not routed');
    if (req.method !== 'GET' && req.method !== 'HEAD') return problem(res, 405, 'METHOD_NOT_ALLOWED', req.method);
    // the console's pages use absolute paths, but a typed "/console" should still land there
    if (url.pathname === '/console') {
      res.writeHead(308, { location: '/console/', ...pageHeaders });
      return res.end();
    }
    if (url.pathname === '/console/config.json') {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(consoleJson), ...pageHeaders });
      return res.end(req.method === 'HEAD' ? undefined : consoleJson);
    }
    const file = staticFile(root, url.pathname);
    let info = null;
    if (file) info = await stat(file).catch(() => null);
    if (!info || !info.isFile()) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8', ...pageHeaders });
      return res.end('not found');
    }
    res.writeHead(200, {
      'content-type': TYPES[path.extname(file)] || 'application/octet-stream',
      'content-length': info.size,
      ...pageHeaders,
    });
    if (req.method === 'HEAD') return res.end();
    createReadStream(file).pipe(res);
    return undefined;
  });

  // WebSocket pass-through for /api/v1/sessions/{id}/live.
  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url, 'http://local');
    const service = routeApi(url.pathname);
    if (!service) return socket.destroy();
    const target = new URL(upstreams[service]);
    const headers = { ...req.headers, host: target.host };
    const upstream = http.request({ hostname: target.hostname, port: target.port, method: req.method, path: url.pathname + url.search, headers });
    upstream.on('upgrade', (up, upSocket, upHead) => {
      const lines = [`HTTP/1.1 ${up.statusCode} ${up.statusMessage}`];
      for (let i = 0; i < up.rawHeaders.length; i += 2) lines.push(`${up.rawHeaders[i]}: ${up.rawHeaders[i + 1]}`);
      socket.write(`${lines.join('\r\n')}\r\n\r\n`);
      if (upHead?.length) socket.write(upHead);
      if (head?.length) upSocket.write(head);
      upSocket.pipe(socket).pipe(upSocket);
      upSocket.on('error', () => socket.destroy());
      socket.on('error', () => upSocket.destroy());
    });
    upstream.on('response', (up) => {
      socket.end(`HTTP/1.1 ${up.statusCode} ${up.statusMessage}\r\ncontent-length: 0\r\n\r\n`);
    });
    upstream.on('error', () => socket.destroy());
    upstream.end();
    return undefined;
  });
  return server;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const port = Number(process.env.EXAM_CLIENT_PORT || process.env.PORT || 8080);
  const host = process.env.EXAM_CLIENT_HOST || '127.0.0.1';
  const upstreams = upstreamsFromEnv();
  createExamClientServer({ upstreams }).listen(port, host, () => {
    console.log(`exam page on http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}/ (API → ${JSON.stringify(upstreams)})`);
  });
}
