-- session-service schema (exam_session). Times are timestamptz; the published Redis
-- state carries them as epoch milliseconds.

CREATE TABLE exam (
    exam_id          text PRIMARY KEY,
    title            text        NOT NULL,
    opens_at         timestamptz NOT NULL,
    closes_at        timestamptz NOT NULL,
    duration_seconds integer     NOT NULL,
    grace_seconds    integer     NOT NULL,
    -- the full questions, keys included; never sent to candidates as they are
    questions        jsonb       NOT NULL,
    key_revision     integer     NOT NULL DEFAULT 0,
    created_by       text        NOT NULL,
    created_at       timestamptz NOT NULL,
    -- optional Idempotency-Key of the create request, so a retried create gives the same exam
    idempotency_key  text,
    request_hash     text,
    CONSTRAINT exam_window CHECK (opens_at < closes_at),
    CONSTRAINT exam_create_once UNIQUE (created_by, idempotency_key)
);

CREATE TABLE candidate (
    exam_id      text        NOT NULL REFERENCES exam (exam_id),
    candidate_id text        NOT NULL,
    -- SHA-256(salt || access code); the code itself is shown once and never stored
    code_salt    bytea       NOT NULL,
    code_hash    bytea       NOT NULL,
    enrolled_at  timestamptz NOT NULL,
    enrolled_by  text        NOT NULL,
    PRIMARY KEY (exam_id, candidate_id)
);

CREATE TABLE session (
    session_id              text PRIMARY KEY,
    exam_id                 text        NOT NULL,
    candidate_id            text        NOT NULL,
    device_epoch            integer     NOT NULL,
    started_at              timestamptz NOT NULL,
    deadline                timestamptz NOT NULL,
    grace_seconds           integer     NOT NULL,
    -- deadline + grace: when auto-submit takes the session
    submit_due_at           timestamptz NOT NULL,
    status                  text        NOT NULL CHECK (status IN ('IN_PROGRESS', 'SUBMITTED')),
    paper_id                text,
    submitted_at            timestamptz,
    submitted_by            text,
    -- auto-submit claims: the first claim forbids extensions; the lease lets another
    -- replica retry a claim whose owner crashed
    autosubmit_claimed_at   timestamptz,
    autosubmit_claimed_by   text,
    autosubmit_lease_until  timestamptz,
    autosubmit_attempts     integer     NOT NULL DEFAULT 0,
    -- bumped by every change: the published Redis state never goes back to an older row
    row_version             bigint      NOT NULL DEFAULT 1,
    FOREIGN KEY (exam_id, candidate_id) REFERENCES candidate (exam_id, candidate_id),
    CONSTRAINT one_session_per_candidate UNIQUE (exam_id, candidate_id)
);

CREATE INDEX session_due ON session (submit_due_at) WHERE status = 'IN_PROGRESS';
CREATE INDEX session_exam ON session (exam_id);

CREATE TABLE extension (
    extension_id    bigserial PRIMARY KEY,
    session_id      text        NOT NULL REFERENCES session (session_id),
    seconds         integer     NOT NULL,
    reason          text        NOT NULL,
    extended_by     text        NOT NULL,
    extended_at     timestamptz NOT NULL,
    idempotency_key text,
    CONSTRAINT extend_once UNIQUE (session_id, idempotency_key)
);

CREATE TABLE audit_entry (
    audit_id    bigserial PRIMARY KEY,
    at          timestamptz NOT NULL,
    actor       text        NOT NULL,
    action      text        NOT NULL,
    exam_id     text,
    session_id  text,
    detail      jsonb       NOT NULL DEFAULT '{}'::jsonb
);

CREATE INDEX audit_exam ON audit_entry (exam_id, audit_id);
CREATE INDEX audit_session ON audit_entry (session_id, audit_id);
