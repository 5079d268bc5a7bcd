/**
 * IndexedDB: the device's copy of every session. Nothing reaches the network before it
 * is here. One database per origin (name configurable), four stores:
 *   sessions  {sessionId, token, deviceEpoch, deadlineMs, graceMs, status, paper, localVersion,
 *              generation, serverVersion, submit, ...}
 *   answers   {sessionId, questionId, value, epoch, version, ackedVersion, sentVersion, stale?, rejected?}
 *             dirty  ⇔  version > ackedVersion
 *   events    {sessionId, eventId, type, at}   proctoring outbox, deleted once the server took them
 *   meta      key → value ('current' = the session this browser is working on)
 * Once a session's paper is confirmed, its record keeps only a receipt (no token) and its answers
 * and events are gone: a shared exam-room PC holds no candidate's work after the paper.
 */

const DB_VERSION = 1;

function req(request) {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

function done(tx) {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error || new Error('transaction aborted'));
  });
}

/**
 * @param {IDBFactory} indexedDB
 * @param {string} name
 */
export async function openStore(indexedDB, name = 'exam-client') {
  if (!indexedDB) throw new Error('IndexedDB is not available: answers cannot be kept on this device');
  const open = indexedDB.open(name, DB_VERSION);
  open.onupgradeneeded = () => {
    const db = open.result;
    db.createObjectStore('sessions', { keyPath: 'sessionId' });
    db.createObjectStore('answers', { keyPath: ['sessionId', 'questionId'] }).createIndex('bySession', 'sessionId');
    db.createObjectStore('events', { keyPath: ['sessionId', 'eventId'] }).createIndex('bySession', 'sessionId');
    db.createObjectStore('meta');
  };
  const db = await req(open);
  // Another tab upgrading the schema: let it, this tab reloads its data next time.
  db.onversionchange = () => db.close();
  return new Store(db);
}

export class Store {
  constructor(db) {
    this.db = db;
  }

  close() {
    this.db.close();
  }

  /** Run fn(stores) in one transaction; resolves with fn's result after commit. */
  async tx(names, mode, fn) {
    const tx = this.db.transaction(names, mode);
    const stores = Object.fromEntries(names.map((n) => [n, tx.objectStore(n)]));
    const committed = done(tx);
    let result;
    try {
      result = await fn(stores);
    } catch (err) {
      try {
        tx.abort();
      } catch {
        /* already finished */
      }
      committed.catch(() => {});
      throw err;
    }
    await committed;
    return result;
  }

  getSession(sessionId) {
    return this.tx(['sessions'], 'readonly', (s) => req(s.sessions.get(sessionId)));
  }

  putSession(session) {
    return this.tx(['sessions'], 'readwrite', (s) => req(s.sessions.put(session)));
  }

  /** Read-modify-write of a session record in one transaction. */
  updateSession(sessionId, mutate) {
    return this.tx(['sessions'], 'readwrite', async (s) => {
      const current = await req(s.sessions.get(sessionId));
      if (!current) throw new Error(`no local session ${sessionId}`);
      const next = mutate(current) || current;
      await req(s.sessions.put(next));
      return next;
    });
  }

  async getAnswers(sessionId) {
    const rows = await this.tx(['answers'], 'readonly', (s) =>
      req(s.answers.index('bySession').getAll(sessionId)),
    );
    return new Map(rows.map((r) => [r.questionId, r]));
  }

  /**
   * The local-first write: bump the session's persisted version counter and store the
   * answer stamped (epoch, version), atomically. Returns the stored record.
   */
  recordChange(sessionId, questionId, value) {
    return this.tx(['sessions', 'answers'], 'readwrite', async (s) => {
      const session = await req(s.sessions.get(sessionId));
      if (!session) throw new Error(`no local session ${sessionId}`);
      const previous = await req(s.answers.get([sessionId, questionId]));
      // Above every version this question has held here (an answer adopted from the server
      // may carry a higher one than the counter): the change must outrank it, and stay dirty.
      session.localVersion = Math.max(session.localVersion || 0, previous?.version || 0) + 1;
      const record = {
        sessionId,
        questionId,
        value,
        epoch: session.deviceEpoch,
        version: session.localVersion,
        ackedVersion: previous?.ackedVersion || 0,
        sentVersion: previous?.sentVersion || 0,
        changedAt: Date.now(),
      };
      await req(s.sessions.put(session));
      await req(s.answers.put(record));
      return record;
    });
  }

  /**
   * Apply fn(record|undefined, questionId) → record|undefined to each question in one
   * transaction, reading fresh records (never a stale copy). Returns the written records.
   */
  updateAnswers(sessionId, questionIds, fn) {
    return this.tx(['answers'], 'readwrite', async (s) => {
      const written = [];
      for (const q of questionIds) {
        const current = await req(s.answers.get([sessionId, q]));
        const next = fn(current, q);
        if (next) {
          await req(s.answers.put(next));
          written.push(next);
        }
      }
      return written;
    });
  }

  addEvent(event) {
    return this.tx(['events'], 'readwrite', (s) => req(s.events.put(event)));
  }

  getEvents(sessionId) {
    return this.tx(['events'], 'readonly', (s) => req(s.events.index('bySession').getAll(sessionId)));
  }

  deleteEvents(sessionId, eventIds) {
    return this.tx(['events'], 'readwrite', async (s) => {
      for (const id of eventIds) await req(s.events.delete([sessionId, id]));
    });
  }

  /**
   * Remove a session's answers and unsent events and its record in one transaction, leaving RECEIPT in the record's
   * place (a submitted session's paper id, without token or answers) — or nothing at all, the 'current' pointer
   * included, when RECEIPT is null.
   */
  forgetSession(sessionId, receipt) {
    return this.tx(['sessions', 'answers', 'events', 'meta'], 'readwrite', async (s) => {
      for (const key of await req(s.answers.index('bySession').getAllKeys(sessionId))) await req(s.answers.delete(key));
      for (const key of await req(s.events.index('bySession').getAllKeys(sessionId))) await req(s.events.delete(key));
      if (receipt) {
        await req(s.sessions.put(receipt));
      } else {
        await req(s.sessions.delete(sessionId));
        if ((await req(s.meta.get('current'))) === sessionId) await req(s.meta.put(null, 'current'));
      }
    });
  }

  getMeta(key) {
    return this.tx(['meta'], 'readonly', (s) => req(s.meta.get(key)));
  }

  setMeta(key, value) {
    return this.tx(['meta'], 'readwrite', (s) => req(s.meta.put(value, key)));
  }
}
