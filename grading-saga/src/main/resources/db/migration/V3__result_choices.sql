-- What a paper chose for each SINGLE, MULTIPLE and TRUE_FALSE question, for the item statistics'
-- option counts: {"q1": [1], "q2": [0, 2], "q3": [0]} — indices into the exam's options
-- (TRUE_FALSE: 0 = true, 1 = false). Written with the marks by the saga's own statements.
ALTER TABLE result ADD COLUMN choices JSONB;

-- The per-exam listing and export walk an exam's papers in paper_id order and take each paper's
-- newest run: one index serves both (it replaces result_exam, its prefix).
CREATE INDEX result_exam_paper ON result (exam_id, paper_id, run DESC);
DROP INDEX result_exam;
