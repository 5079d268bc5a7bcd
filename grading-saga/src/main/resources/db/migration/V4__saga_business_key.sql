-- The saga engine knows no paper, exam or session: a saga is keyed by its definition's
-- business key (the grading saga's: the paper id) and run, and carries the other ids of its
-- domain in `refs`, JSON set when the saga starts and never changed, which the engine stores
-- without reading it. Apart from `data` (the steps' state, rewritten as they go), so that no
-- step's write can lose them.
--
-- RENAME keeps the unique constraint (one saga per key and run: a replayed paper message or
-- a repeated regrade starts nothing) and its index, which `ON CONFLICT (business_key, run)`
-- and the newest-run lookups use; the workers' partial index `saga_due` is untouched.
-- Existing sagas keep their ids in `refs`. A replica of the previous release still running
-- during a rolling upgrade fails on the renamed column (its claims, starts and archive
-- batches roll back; what it held is released or its lease runs out) and a new replica
-- takes its work over; nothing it can still write touches `refs`.
ALTER TABLE saga RENAME COLUMN paper_id TO business_key;
ALTER TABLE saga RENAME CONSTRAINT saga_paper_run TO saga_key_run;
ALTER TABLE saga ADD COLUMN refs JSONB NOT NULL DEFAULT '{}'::jsonb;
UPDATE saga SET refs = jsonb_build_object('examId', exam_id, 'sessionId', session_id);
ALTER TABLE saga DROP COLUMN exam_id, DROP COLUMN session_id;
