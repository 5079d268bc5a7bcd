/**
 * One writer per session per browser: two tabs of the same exam must not both autosave
 * (their version counters would interleave and one would see its own answers as stale).
 * Web Locks when the browser has them; otherwise a BroadcastChannel protocol:
 *   a new tab asks "who holds it?" and waits `probeMs`; a holder answers "held";
 *   two tabs that claim at once settle it by (claimedAt, tabId): the later one yields.
 * Either way a tab can take the lock over explicitly (steal): the old holder is told and
 * becomes read-only.
 */

export class WriterLock {
  /**
   * @param {string} name
   * @param {{locks?: LockManager|null, BroadcastChannel?: typeof BroadcastChannel|null,
   *          timers: {setTimeout: Function, clearTimeout: Function}, probeMs?: number,
   *          random?: () => number, now?: () => number}} deps
   */
  constructor(name, { locks, BroadcastChannel: BC, timers, probeMs = 150, random = Math.random, now = Date.now }) {
    this.name = name;
    this._locks = locks || null;
    this._BC = BC || null;
    this._timers = timers;
    this._probeMs = probeMs;
    this._now = now;
    this.tabId = `${now().toString(36)}-${Math.floor(random() * 2 ** 32).toString(36)}`;
    this.held = false;
    this._lostListeners = new Set();
  }

  /** What protects this tab: 'web-locks', 'broadcast-channel' or 'none'. */
  get mechanism() {
    if (this._locks) return 'web-locks';
    if (this._BC) return 'broadcast-channel';
    return 'none';
  }

  /** @param {() => void} fn called when another tab took the lock over */
  onLost(fn) {
    this._lostListeners.add(fn);
    return () => this._lostListeners.delete(fn);
  }

  /** @param {{steal?: boolean}} [opts] @returns {Promise<boolean>} */
  acquire({ steal = false } = {}) {
    if (this.held) return Promise.resolve(true);
    if (this._locks) return this._acquireWebLock(steal);
    if (this._BC) return this._acquireChannel(steal);
    this.held = true; // nothing to coordinate with
    return Promise.resolve(true);
  }

  release() {
    const wasHeld = this.held;
    this.held = false;
    this._releaseWebLock?.();
    this._releaseWebLock = null;
    if (this._channel) {
      if (wasHeld) this._channel.postMessage({ type: 'released', from: this.tabId });
      this._channel.close();
      this._channel = null;
    }
  }

  _lost() {
    if (!this.held) return;
    this.held = false;
    for (const fn of this._lostListeners) fn();
  }

  _acquireWebLock(steal) {
    return new Promise((resolve) => {
      const options = steal ? { steal: true } : { ifAvailable: true };
      this._locks
        .request(this.name, options, (lock) => {
          if (!lock) {
            resolve(false);
            return undefined;
          }
          this.held = true;
          resolve(true);
          // Holding the returned promise holds the lock until release().
          return new Promise((release) => {
            this._releaseWebLock = release;
          });
        })
        // A steal by another tab rejects our request's promise with AbortError.
        .catch(() => this._lost());
    });
  }

  _openChannel() {
    if (this._channel) return this._channel;
    const channel = new this._BC(`exam-writer:${this.name}`);
    channel.onmessage = (e) => this._onMessage(e.data || {});
    this._channel = channel;
    return channel;
  }

  _onMessage(msg) {
    if (msg.from === this.tabId) return;
    if (msg.type === 'who' && this.held) {
      this._channel.postMessage({ type: 'held', from: this.tabId, to: msg.from });
    } else if (msg.type === 'held' && msg.to === this.tabId) {
      this._heardHolder = true;
    } else if (msg.type === 'steal' && this.held) {
      this._lost();
    } else if (msg.type === 'claimed' && this.held) {
      // Simultaneous claims: the earlier (claimedAt, tabId) keeps the lock.
      const mine = [this._claimedAt, this.tabId];
      const theirs = [msg.claimedAt, msg.from];
      if (theirs[0] < mine[0] || (theirs[0] === mine[0] && theirs[1] < mine[1])) this._lost();
    }
  }

  _claim() {
    this.held = true;
    this._claimedAt = this._now();
    this._channel.postMessage({ type: 'claimed', from: this.tabId, claimedAt: this._claimedAt });
  }

  _acquireChannel(steal) {
    const channel = this._openChannel();
    if (steal) {
      channel.postMessage({ type: 'steal', from: this.tabId });
      this._claimedAt = -Infinity; // a deliberate takeover wins every tie-break
      this.held = true;
      return Promise.resolve(true);
    }
    this._heardHolder = false;
    channel.postMessage({ type: 'who', from: this.tabId });
    return new Promise((resolve) => {
      this._timers.setTimeout(() => {
        if (this._heardHolder) return resolve(false);
        this._claim();
        resolve(true);
      }, this._probeMs);
    });
  }
}
