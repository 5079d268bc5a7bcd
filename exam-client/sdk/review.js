/**
 * Flags for review: the candidate's own marks on questions to come back to (docs/api.md §3.3).
 * They are one reserved entry of the draft, `~review`, whose value is the flagged question ids
 * (null when none): written to IndexedDB first, autosaved and merged by stamp exactly like an
 * answer, so they survive a reload and follow the candidate to another device. They are never
 * part of the paper: the final sheet leaves the entry out (and the server would ignore it).
 */
import { ApiError, ClientCodes } from './errors.js';

/** The reserved draft entry's id (suite-common ReviewFlags.ENTRY_ID); no question id starts with '~'. */
export const REVIEW_FLAGS_ID = '~review';

export function isReservedEntry(id) {
  return typeof id === 'string' && id.startsWith('~');
}

export const reviewMethods = {
  /** The flagged question ids, in the paper's order. */
  reviewFlags() {
    const held = this._answers.get(REVIEW_FLAGS_ID)?.value;
    const flagged = new Set(Array.isArray(held) ? held : []);
    return this.questions.map((q) => q.id).filter((id) => flagged.has(id));
  },

  isFlagged(questionId) {
    const held = this._answers.get(REVIEW_FLAGS_ID)?.value;
    return Array.isArray(held) && held.includes(questionId);
  },

  /**
   * Flag a question for review (or clear its flag). Resolves once it is in IndexedDB; the
   * server gets it with the next autosave. Rejects with EDITING_LOCKED / UNKNOWN_QUESTION.
   */
  async setFlag(questionId, flagged) {
    if (!this.questions.some((q) => q.id === questionId)) {
      throw new ApiError({ code: ClientCodes.UNKNOWN_QUESTION, detail: `no question ${questionId}` });
    }
    const reason = this.lockReason();
    if (reason) throw new ApiError({ code: ClientCodes.EDITING_LOCKED, detail: reason });
    const current = new Set(this.reviewFlags());
    if (current.has(questionId) === !!flagged) return { flagged: this.reviewFlags() };
    if (flagged) current.add(questionId);
    else current.delete(questionId);
    const ids = this.questions.map((q) => q.id).filter((id) => current.has(id));
    const record = await this._store.recordChange(this.sessionId, REVIEW_FLAGS_ID, ids.length ? ids : null);
    this._answers.set(REVIEW_FLAGS_ID, record);
    this.session.localVersion = record.version;
    this._scheduleSave();
    this._emitStatus();
    this._emit('flags', { questionIds: this.reviewFlags() });
    return { flagged: this.reviewFlags() };
  },
};
