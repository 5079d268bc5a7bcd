-- Time accommodations per candidate (docs/api.md §3.1): extra time on the exam's duration, applied at the
-- session's start (the deadline is fixed then; afterwards only an extension changes it).
ALTER TABLE candidate ADD COLUMN extra_seconds integer NOT NULL DEFAULT 0
    CONSTRAINT candidate_extra_seconds CHECK (extra_seconds BETWEEN 0 AND 86400);
-- the duration multiplier in thousandths (1250: 1.25 × the exam's duration)
ALTER TABLE candidate ADD COLUMN duration_permille integer NOT NULL DEFAULT 1000
    CONSTRAINT candidate_duration_permille CHECK (duration_permille BETWEEN 1000 AND 4000);
