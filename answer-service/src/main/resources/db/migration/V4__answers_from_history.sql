-- The newest answer of a question is the highest stamp (epoch, version) of its rows in
-- answer_history, so the separate `answer` table (rewritten on every flush beside the history
-- insert) was a second write of every persisted value: half of the write-behind's cost in
-- PostgreSQL. Every row of `answer` was also inserted into answer_history when it moved; the
-- copy below keeps any row that is not (there should be none) before the table goes.
-- A replica of the previous release still flushing during a rolling upgrade fails on the
-- missing table and gives its claims back; a new replica flushes them (at least once).
INSERT INTO answer_history (session_id, question_id, epoch, version, value, generation, persisted_at)
SELECT a.session_id, a.question_id, a.epoch, a.version, a.value, d.generation, a.updated_at
FROM answer a JOIN draft d USING (session_id)
ON CONFLICT (session_id, question_id, epoch, version) DO NOTHING;
DROP TABLE answer;
