-- The console's exam list pages newest first by keyset (created_at, exam_id); the roster pages
-- by (exam_id, candidate_id), which one_session_per_candidate already indexes.
CREATE INDEX exam_newest ON exam (created_at DESC, exam_id DESC);
