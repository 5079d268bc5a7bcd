/**
 * Named one-shot timers on injectable timers (the tests' fake clock): setting a name again
 * replaces its timer, so each job (save, heartbeat, reconnect, ...) is pending at most once.
 */
export class NamedTimers {
  constructor(timers) {
    this._timers = timers;
    this._pending = {};
  }

  set(name, ms, fn) {
    this.cancel(name);
    this._pending[name] = this._timers.setTimeout(() => {
      delete this._pending[name];
      fn();
    }, ms);
  }

  has(name) {
    return this._pending[name] !== undefined;
  }

  cancel(name) {
    if (this._pending[name] === undefined) return;
    this._timers.clearTimeout(this._pending[name]);
    delete this._pending[name];
  }

  cancelAll() {
    for (const name of Object.keys(this._pending)) this.cancel(name);
  }
}
