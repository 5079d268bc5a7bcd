-- The saga engine: one row per saga run, one row per step (the step log), and a history
-- of every transition, so an operator can see what happened and in which order.
CREATE TABLE saga (
    saga_id         UUID PRIMARY KEY,
    definition      TEXT        NOT NULL,
    paper_id        TEXT        NOT NULL,
    run             INT         NOT NULL,
    exam_id         TEXT        NOT NULL,
    session_id      TEXT        NOT NULL,
    -- RUNNING | WAITING | COMPENSATING | COMPLETED | COMPENSATED | FAILED
    status          TEXT        NOT NULL,
    -- FORWARD while steps run, BACKWARD once compensating (an operator retry resumes it)
    phase           TEXT        NOT NULL DEFAULT 'FORWARD',
    data            JSONB       NOT NULL DEFAULT '{}'::jsonb,
    next_attempt_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    lease_owner     TEXT,
    lease_until     TIMESTAMPTZ,
    traceparent     TEXT,
    tracestate      TEXT,
    created_at      TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at      TIMESTAMPTZ NOT NULL DEFAULT now(),
    -- one paper starts at most one saga per run (run 1 from the stream, later runs by regrade)
    CONSTRAINT saga_paper_run UNIQUE (paper_id, run)
);
-- what the workers claim: runnable, due, not leased
CREATE INDEX saga_due ON saga (next_attempt_at) WHERE status IN ('RUNNING', 'COMPENSATING');

CREATE TABLE saga_step (
    saga_id          UUID        NOT NULL REFERENCES saga (saga_id),
    position         INT         NOT NULL,
    step             TEXT        NOT NULL,
    -- PENDING | RUNNING | WAITING | DONE | FAILED | COMPENSATING | COMPENSATED
    status           TEXT        NOT NULL DEFAULT 'PENDING',
    attempts         INT         NOT NULL DEFAULT 0,
    comp_attempts    INT         NOT NULL DEFAULT 0,
    last_error       TEXT,
    started_at       TIMESTAMPTZ,
    finished_at      TIMESTAMPTZ,
    compensated_at   TIMESTAMPTZ,
    PRIMARY KEY (saga_id, position)
);

CREATE TABLE saga_history (
    id      BIGSERIAL PRIMARY KEY,
    saga_id UUID        NOT NULL REFERENCES saga (saga_id),
    at      TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp(),
    event   TEXT        NOT NULL,
    step    TEXT,
    detail  TEXT
);
CREATE INDEX saga_history_saga ON saga_history (saga_id, id);

-- Results: one row per paper and run; only a GRADED row shows marks.
CREATE TABLE result (
    paper_id      TEXT        NOT NULL,
    run           INT         NOT NULL,
    saga_id       UUID        NOT NULL REFERENCES saga (saga_id),
    exam_id       TEXT        NOT NULL,
    session_id    TEXT        NOT NULL,
    candidate_id  TEXT,
    -- PENDING | GRADED | NEEDS_REVIEW | FAILED
    status        TEXT        NOT NULL,
    score         NUMERIC,
    max_score     NUMERIC,
    marks         JSONB,
    key_revision  BIGINT,
    reason        TEXT,
    archive_seq   BIGINT,
    updated_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (paper_id, run)
);
CREATE INDEX result_exam ON result (exam_id);

CREATE TABLE exam_release (
    exam_id     TEXT PRIMARY KEY,
    released_at TIMESTAMPTZ NOT NULL,
    released_by TEXT        NOT NULL
);

-- The archive: append-only and hash-chained. One head row, locked FOR UPDATE by every
-- append, serialises appends across replicas and makes the sequence gapless.
CREATE TABLE archive_head (
    id   INT PRIMARY KEY CHECK (id = 1),
    seq  BIGINT NOT NULL,
    hash TEXT   NOT NULL
);
INSERT INTO archive_head (id, seq, hash)
VALUES (1, 0, '0000000000000000000000000000000000000000000000000000000000000000');

CREATE TABLE archive_record (
    seq        BIGINT PRIMARY KEY,
    paper_id   TEXT        NOT NULL,
    kind       TEXT        NOT NULL,
    run        INT         NOT NULL,
    payload    TEXT        NOT NULL,
    prev_hash  TEXT        NOT NULL,
    hash       TEXT        NOT NULL,
    created_at TIMESTAMPTZ NOT NULL,
    CONSTRAINT archive_once UNIQUE (paper_id, kind, run)
);

CREATE TABLE audit_log (
    id       BIGSERIAL PRIMARY KEY,
    at       TIMESTAMPTZ NOT NULL,
    actor    TEXT        NOT NULL,
    action   TEXT        NOT NULL,
    exam_id  TEXT,
    paper_id TEXT,
    saga_id  UUID,
    detail   TEXT
);
