/**
 * Merging this device's draft with the server's, per question, by stamp (docs/api.md §3.3):
 * a stamp is (deviceEpoch, version) compared lexicographically.
 *
 * The server's GET gives {value, version} per question and the stamps' epochs beside them
 * (`epochs: {q: epoch}`; see `withEpochs`).
 * With the epoch, the rule is exact. Without it the SDK only knows its own history, so:
 *  - a local change not yet acknowledged (dirty) that was made under the current token
 *    epoch is newer than anything the server holds for this epoch → push it (the server
 *    compares stamps anyway; a stale answer then brings the server's value back);
 *  - a dirty change from an older epoch (written before a sign-in again / takeover) is
 *    pushed only if the server has not moved since what this device sent; otherwise
 *    another device wrote after it, and a newer device always wins → adopt the server's;
 *  - an acknowledged local answer that the server lacks, or (after a generation change,
 *    i.e. the server restored from PostgreSQL and may have lost acknowledged writes) holds
 *    at a lower version, is pushed again;
 *  - otherwise the server's value is adopted.
 */

/** @returns {number} <0, 0, >0 */
export function compareStamps(a, b) {
  if (a.epoch !== b.epoch) return a.epoch < b.epoch ? -1 : 1;
  if (a.version !== b.version) return a.version < b.version ? -1 : 1;
  return 0;
}

export function sameValue(a, b) {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

function serverEpoch(s) {
  const e = s.epoch ?? s.deviceEpoch;
  return Number.isInteger(e) ? e : null;
}

/**
 * The GET draft's answers with each stamp's epoch folded in: answer-service keeps `answers`
 * in the final sheet's shape ({value, version}) and sends `epochs: {q: epoch}` beside them.
 * @param {{answers?: Record<string, {value:any, version:number}>, epochs?: Record<string, number>}} draft
 */
export function withEpochs(draft) {
  const out = {};
  const epochs = (draft && draft.epochs) || {};
  for (const [q, a] of Object.entries((draft && draft.answers) || {})) {
    out[q] = Number.isInteger(epochs[q]) ? { ...a, epoch: epochs[q] } : a;
  }
  return out;
}

/**
 * @param {Map<string, {value:any, epoch:number|null, version:number, ackedVersion:number, sentVersion:number}>} local
 * @param {Record<string, {value:any, version:number, epoch?:number}>} serverAnswers
 * @param {{tokenEpoch: number, regenerated?: boolean}} ctx
 * @returns {{adopt: Array<{questionId:string, value:any, version:number, epoch:number|null}>,
 *            push: string[], inSync: Array<{questionId:string, version:number}>}}
 */
export function mergeDraft(local, serverAnswers, { tokenEpoch, regenerated = false }) {
  const adopt = [];
  const push = [];
  const inSync = [];
  const server = serverAnswers || {};
  const ids = new Set([...local.keys(), ...Object.keys(server)]);
  for (const q of ids) {
    const L = local.get(q);
    const S = Object.prototype.hasOwnProperty.call(server, q) ? server[q] : undefined;
    if (!L) {
      if (S) adopt.push({ questionId: q, value: S.value ?? null, version: S.version, epoch: serverEpoch(S) });
      continue;
    }
    if (!S) {
      push.push(q); // the server lacks it, whether it never arrived or was lost
      continue;
    }
    const dirty = L.version > L.ackedVersion;
    const sEpoch = serverEpoch(S);
    if (sEpoch != null && L.epoch != null) {
      const cmp = compareStamps({ epoch: L.epoch, version: L.version }, { epoch: sEpoch, version: S.version });
      if (cmp > 0) push.push(q);
      else if (cmp === 0) inSync.push({ questionId: q, version: L.version });
      else adopt.push({ questionId: q, value: S.value ?? null, version: S.version, epoch: sEpoch });
      continue;
    }
    if (dirty) {
      const serverUnmoved = S.version === L.ackedVersion || S.version === L.sentVersion;
      if (L.epoch === tokenEpoch || serverUnmoved) push.push(q);
      else adopt.push({ questionId: q, value: S.value ?? null, version: S.version, epoch: null });
      continue;
    }
    if (S.version === L.version && sameValue(S.value, L.value)) {
      inSync.push({ questionId: q, version: L.version });
    } else if (regenerated && S.version < L.version && (L.epoch === tokenEpoch || L.epoch == null)) {
      push.push(q); // the restored draft is older than what this device had acknowledged
    } else {
      adopt.push({ questionId: q, value: S.value ?? null, version: S.version, epoch: null });
    }
  }
  return { adopt, push, inSync };
}
