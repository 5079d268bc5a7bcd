-- Announcements to every candidate of an exam (docs/api.md §3.8): each posted once per Idempotency-Key.
CREATE TABLE announcement (
    announcement_id text        PRIMARY KEY,
    exam_id         text        NOT NULL REFERENCES exam (exam_id),
    text            text        NOT NULL,
    posted_by       text        NOT NULL,
    posted_at       timestamptz NOT NULL,
    idempotency_key text        NOT NULL,
    CONSTRAINT announce_once UNIQUE (exam_id, idempotency_key)
);
CREATE INDEX announcement_exam ON announcement (exam_id, posted_at DESC);
