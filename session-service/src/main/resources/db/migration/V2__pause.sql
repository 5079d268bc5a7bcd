-- Pause and resume (a session, or a whole exam: a fire alarm). While PAUSED the candidate's
-- clock stands still at paused_at; resume moves deadline and submit_due_at by the paused time.
ALTER TABLE session DROP CONSTRAINT IF EXISTS session_status_check;
ALTER TABLE session ADD CONSTRAINT session_status_check CHECK (status IN ('IN_PROGRESS', 'PAUSED', 'SUBMITTED'));
ALTER TABLE session ADD COLUMN paused_at timestamptz;
-- paused by the exam's pause (its resume resumes it), not by a pause of this session alone
ALTER TABLE session ADD COLUMN paused_by_exam boolean NOT NULL DEFAULT false;
-- the time this session has spent paused so far, for the monitor and the audit
ALTER TABLE session ADD COLUMN paused_ms bigint NOT NULL DEFAULT 0;
ALTER TABLE session ADD CONSTRAINT session_paused_at CHECK ((status = 'PAUSED') = (paused_at IS NOT NULL));
ALTER TABLE exam ADD COLUMN paused_at timestamptz;
