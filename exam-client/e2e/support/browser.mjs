/**
 * Headless Chromium from Debian's package (no browser download), driven by playwright-core.
 * CHROMIUM_PATH overrides /usr/bin/chromium.
 */
import { chromium } from 'playwright-core';
import { createExamClientServer } from '../../server.mjs';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ARTIFACTS = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'artifacts');
export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

export function chromiumMissing() {
  return existsSync(CHROMIUM) ? false : `no Chromium at ${CHROMIUM} (apt-get install -y chromium)`;
}

export async function launch() {
  mkdirSync(ARTIFACTS, { recursive: true });
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

export function artifact(name) {
  return path.join(ARTIFACTS, name);
}

/**
 * server.mjs on a loopback port (a free one unless `port`), proxying to `upstreams`; the console signs in with pasted
 * tokens unless `consoleConfig` names an identity provider. Resolves {server, baseUrl}.
 */
export async function servePage(upstreams, { port = 0, consoleConfig = { issuer: null, clientId: null } } = {}) {
  const server = createExamClientServer({ upstreams, consoleConfig });
  await new Promise((r) => server.listen(port, '127.0.0.1', r));
  return { server, baseUrl: `http://127.0.0.1:${server.address().port}` };
}
