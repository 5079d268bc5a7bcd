-- Proctoring rules per exam (fixed at creation; NULL: an exam created before, on the defaults),
-- and the running sessions of an exam by deadline, for the offline-near-deadline rule.
ALTER TABLE exam ADD COLUMN proctoring_rules jsonb;
CREATE INDEX session_running_deadline ON session (exam_id, deadline) WHERE status = 'IN_PROGRESS';
