-- The organisation an exam belongs to (issue: staff roles scoped to organisations). Set once, at creation, from the
-- creating staff member's token; NULL for exams created by an operator without one (only operators reach those).
ALTER TABLE exam ADD COLUMN organisation text;
CREATE INDEX exam_organisation_newest ON exam (organisation, created_at DESC, exam_id DESC);
