/**
 * What the end-to-end tests against the RUNNING SUITE share: whether it answers (they skip
 * when it does not, or fail with EXAM_E2E_REQUIRE_SUITE=1), and an operator token.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { upstreamsFromEnv } from '../../server.mjs';
import { chromiumMissing } from './browser.mjs';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const upstreams = upstreamsFromEnv();

async function suiteReady() {
  for (const url of Object.values(upstreams)) {
    try {
      const res = await fetch(`${url}/q/health/ready`, { signal: AbortSignal.timeout(3000) });
      if (!res.ok) return `${url} not ready (${res.status})`;
    } catch (err) {
      return `${url} does not answer (${err.cause?.code || err.message})`;
    }
  }
  return null;
}

/** The skip reason for node:test (false when the suite and Chromium are there). */
export async function suiteSkip() {
  const notReady = chromiumMissing() || (await suiteReady());
  if (notReady && process.env.EXAM_E2E_REQUIRE_SUITE === '1') throw new Error(`suite e2e required but: ${notReady}`);
  return notReady ? `the suite is not running: ${notReady} (./exam up)` : false;
}

/** EXAM_OPERATOR_TOKEN, else the last line of `./exam token operator <subject>`. */
export function operatorToken(subject) {
  if (process.env.EXAM_OPERATOR_TOKEN) return process.env.EXAM_OPERATOR_TOKEN;
  const out = execFileSync(path.join(REPO, 'exam'), ['token', 'operator', subject], { cwd: REPO, encoding: 'utf8' });
  return out.trim().split('\n').at(-1).trim();
}
