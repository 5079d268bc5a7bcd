-- exam_answer: the durable copy of the drafts (write-behind from Redis), the answer
-- history, and the seals. Redis is the hot path; PostgreSQL is what survives Redis.

-- One row per session's draft. generation only grows: each restore from PostgreSQL takes
-- the next one, so a client always sees that the server may have lost something.
-- sealed_at/snapshot: the seal (authoritative: a sealed draft stays sealed whatever Redis says).
CREATE TABLE draft (
    session_id   text        PRIMARY KEY,
    exam_id      text        NOT NULL,
    generation   bigint      NOT NULL,
    version      bigint      NOT NULL DEFAULT 0,
    late_changes bigint      NOT NULL DEFAULT 0,
    sealed_at    timestamptz,
    snapshot     text,
    updated_at   timestamptz NOT NULL DEFAULT now()
);

-- The newest answer per question; upserts are guarded by the stamp (epoch, version), so a
-- replayed or reordered write never regresses a newer row. value is JSON text ('null' = cleared).
CREATE TABLE answer (
    session_id  text        NOT NULL,
    question_id text        NOT NULL,
    epoch       bigint      NOT NULL,
    version     bigint      NOT NULL,
    value       text        NOT NULL,
    updated_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (session_id, question_id)
);

-- Every value that reached PostgreSQL, with its stamp (coalesced per flush), for appeals and audits.
CREATE TABLE answer_history (
    id           bigserial   PRIMARY KEY,
    session_id   text        NOT NULL,
    question_id  text        NOT NULL,
    epoch        bigint      NOT NULL,
    version      bigint      NOT NULL,
    value        text        NOT NULL,
    generation   bigint      NOT NULL,
    persisted_at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (session_id, question_id, epoch, version)
);
CREATE INDEX answer_history_session ON answer_history (session_id, id);
