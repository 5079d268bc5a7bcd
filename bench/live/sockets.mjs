// The live benchmark's candidates: one WebSocket per seeded session on session-service's live
// channel, as the SDK opens it (token as the second subprotocol), then an exam-wide pause and
// resume through the API, timing each socket's PAUSED and RESUMED. Prints one JSON summary.
//   node sockets.mjs <base-url> <sessions-file> <operator-token-file> <exam-id> <service-pid> <in-flight>
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(new URL('../../exam-client/package.json', import.meta.url));
const WebSocket = require('ws');

const [base, sessionsFile, operatorFile, examId, servicePid, inFlightArg] = process.argv.slice(2);
const sessions = readFileSync(sessionsFile, 'utf8').trim().split('\n').map((l) => l.split(' '));
const operator = readFileSync(operatorFile, 'utf8').trim();
const inFlight = Number(inFlightArg || 200);
const wsBase = base.replace(/^http/, 'ws');

// The replica's /proc entries; null once it has died (an OOM is a result, not a crash of the driver).
const proc = (file) => {
  try {
    return readFileSync(`/proc/${servicePid}/${file}`, 'utf8');
  } catch {
    return null;
  }
};
const statusKiB = (field) => {
  const line = proc('status')?.split('\n').find((l) => l.startsWith(`${field}:`));
  return line ? Number(line.split(/\s+/)[1]) : null;
};
const rssMiB = () => (statusKiB('VmRSS') == null ? null : Math.round(statusKiB('VmRSS') / 1024));
const cpuTicks = () => {
  const stat = proc('stat')?.replace(/^.*\) /, '').split(' ');
  return stat ? Number(stat[11]) + Number(stat[12]) : NaN;
};
const pct = (xs, p) => {
  if (!xs.length) return null;
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1))];
};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const sockets = [];
const waiting = new Map(); // type -> { since, times: [] }
function open([sessionId, token]) {
  return new Promise((resolve) => {
    const started = performance.now();
    const ws = new WebSocket(`${wsBase}/api/v1/sessions/${sessionId}/live`, ['exam-live', token]);
    let first = true;
    ws.on('message', (data) => {
      const message = JSON.parse(String(data));
      if (first && message.type === 'TIME') {
        first = false;
        resolve({ ws, ms: performance.now() - started });
      }
      const wait = waiting.get(message.type);
      if (wait && !ws[`seen${message.type}`]) {
        ws[`seen${message.type}`] = true;
        wait.times.push(performance.now() - wait.since);
      }
    });
    ws.on('error', () => first && ((first = false), resolve({ ws: null, ms: performance.now() - started })));
    ws.on('close', () => first && ((first = false), resolve({ ws: null, ms: performance.now() - started })));
  });
}

const rssBefore = rssMiB();
const cpu0 = cpuTicks();
const t0 = performance.now();
const connectMs = [];
let failed = 0;
let next = 0;
await Promise.all(Array.from({ length: inFlight }, async () => {
  while (next < sessions.length) {
    const { ws, ms } = await open(sessions[next++]);
    if (ws) {
      sockets.push(ws);
      connectMs.push(ms);
    } else {
      failed++;
    }
  }
}));
const connectSeconds = (performance.now() - t0) / 1000;
const cpu1 = cpuTicks();
await sleep(Number(process.env.HOLD_MS || 3000)); // settle before the memory reading (HOLD_MS: time for a heap dump)
const rssOpen = rssMiB();

async function command(path, type) {
  const wait = { since: performance.now(), times: [] };
  waiting.set(type, wait);
  const res = await fetch(`${base}${path}`, { method: 'POST', headers: { Authorization: `Bearer ${operator}` } });
  const accepted = performance.now() - wait.since;
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  const deadline = performance.now() + 30_000;
  while (wait.times.length < sockets.length && performance.now() < deadline) await sleep(20);
  waiting.delete(type);
  return { answeredMs: Math.round(accepted), delivered: wait.times.length, first: Math.round(pct(wait.times, 0)), p50: Math.round(pct(wait.times, 50)), p99: Math.round(pct(wait.times, 99)), max: Math.round(pct(wait.times, 100)) };
}
const cpu2 = cpuTicks();
const alive = proc('status') != null;
const none = { answeredMs: null, delivered: 0, first: null, p50: null, p99: null, max: null };
const paused = alive ? await command(`/api/v1/exams/${examId}/pause`, 'PAUSED') : none;
const resumed = alive ? await command(`/api/v1/exams/${examId}/resume`, 'RESUMED') : none;
const cpu3 = cpuTicks();
const rssPeak = (statusKiB('VmHWM') ?? NaN) / 1024;
for (const ws of sockets) ws.terminate();
console.log(JSON.stringify({
  sockets: sockets.length, failed, inFlight, serviceAlive: alive,
  connectPerSecond: Math.round(sockets.length / connectSeconds), connectP50: Math.round(pct(connectMs, 50)), connectP99: Math.round(pct(connectMs, 99)),
  connectCpuMsPerSocket: ((cpu1 - cpu0) * 10) / Math.max(1, sockets.length),
  rssBeforeMiB: rssBefore, rssOpenMiB: rssOpen, rssPeakMiB: Math.round(rssPeak),
  kibPerSocket: Math.round(((rssOpen - rssBefore) * 1024) / Math.max(1, sockets.length)),
  paused, resumed, commandCpuMsPerSocket: ((cpu3 - cpu2) * 10) / Math.max(1, 2 * sockets.length),
}));
