-- The write-behind inserts a history row for every value that reaches PostgreSQL: each index
-- on answer_history is paid on every autosaved change. The unique stamp index
-- (session_id, question_id, epoch, version) already leads with session_id, so the history
-- API's per-session read (a few hundred rows at most, sorted by id) uses it; the separate
-- (session_id, id) index only cost writes.
DROP INDEX IF EXISTS answer_history_session;

-- An answer row is rewritten on every flush that carries a newer value of its question, and
-- only its non-key columns change: leave room on each page so the new row version goes on the
-- same page (a HOT update: no primary-key entry, pruned without VACUUM). Applies to pages
-- written from now on.
ALTER TABLE answer SET (fillfactor = 50);
