/** The rules the SDK reads off its IndexedDB records and the server's session answers. */
import { parseTime } from './time.js';

/** An answer changed on this device since the server last acknowledged it. */
export function isDirty(r) {
  return r.version > (r.ackedVersion || 0);
}

/** Rejected by the server (400/413) and unchanged since: sending it again cannot help. */
export function isRejectedAsIs(r) {
  return !!r.rejected && r.rejected.version === r.version;
}

/** The deadline a session answer gives: its own, or its server time plus the remaining time. */
export function deadlineFrom(body) {
  const deadline = parseTime(body?.deadline);
  if (deadline != null) return deadline;
  const serverTime = parseTime(body?.serverTime);
  if (serverTime != null && Number.isFinite(body?.remainingMs)) return serverTime + body.remainingMs;
  return null;
}
