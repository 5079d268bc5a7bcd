-- Exam drafts (authoring/, Hibernate Reactive Panache): an exam being written, its document the body of
-- POST /api/v1/exams, possibly incomplete. Publishing makes the exam row of the same id and freezes the draft.
-- varchar, not text: the same in PostgreSQL, and what Hibernate's schema validation expects of a String.
CREATE TABLE exam_draft (
    exam_id varchar PRIMARY KEY,
    state varchar NOT NULL CHECK (state IN ('DRAFT', 'PUBLISHING', 'PUBLISHED')),
    title varchar,
    document varchar NOT NULL,
    organisation varchar,
    version integer NOT NULL,
    created_by varchar NOT NULL,
    created_at timestamptz NOT NULL,
    updated_by varchar NOT NULL,
    updated_at timestamptz NOT NULL,
    idempotency_key varchar,
    request_hash varchar,
    UNIQUE (created_by, idempotency_key)
);
CREATE INDEX exam_draft_organisation_newest ON exam_draft (organisation, updated_at DESC);
