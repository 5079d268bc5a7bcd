-- Exactly one immutable paper per session, and the transactional outbox that carries each
-- paper to grading (stream:{papers}) and its status back to session-service.

CREATE TABLE papers (
    paper_id      uuid        PRIMARY KEY,
    -- The last guard of "one paper per session": whatever the locks and caches above did.
    session_id    text        NOT NULL UNIQUE,
    exam_id       text        NOT NULL,
    candidate_id  text,
    submitted_by  text        NOT NULL CHECK (submitted_by IN ('CANDIDATE', 'AUTO', 'PROCTOR')),
    submitted_at  timestamptz NOT NULL,
    actor         text,
    -- RFC 8785 canonical JSON of the paper without digest and signature: the digested bytes.
    document      text        NOT NULL,
    digest        char(64)    NOT NULL,
    signature     text        NOT NULL,
    stored_at     timestamptz NOT NULL DEFAULT now()
);

-- A paper never changes once stored: no UPDATE path in the code, and none in the database.
CREATE FUNCTION forbid_paper_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'papers are immutable (% on paper %)', TG_OP, OLD.paper_id
        USING ERRCODE = 'integrity_constraint_violation';
END;
$$;

CREATE TRIGGER papers_are_immutable
    BEFORE UPDATE OR DELETE ON papers
    FOR EACH ROW EXECUTE FUNCTION forbid_paper_change();

-- One row per paper and kind, written in the paper's transaction:
--   PAPER_PUBLISH      XADD to stream:{papers}; done when grading-saga confirms (grading-started),
--                      published again every republish-after until then.
--   SESSION_SUBMITTED  POST session-service /internal/v1/sessions/{id}/submitted; done on 2xx.
-- Relays on several replicas claim due rows with FOR UPDATE SKIP LOCKED and a lease
-- (next_attempt_at moved forward), so a relay that crashes mid-way loses nothing.
CREATE TABLE outbox (
    id               bigserial   PRIMARY KEY,
    kind             text        NOT NULL CHECK (kind IN ('PAPER_PUBLISH', 'SESSION_SUBMITTED')),
    paper_id         uuid        NOT NULL REFERENCES papers (paper_id),
    session_id       text        NOT NULL,
    exam_id          text        NOT NULL,
    traceparent      text,
    tracestate       text,
    attempts         integer     NOT NULL DEFAULT 0,
    next_attempt_at  timestamptz NOT NULL,
    last_sent_at     timestamptz,
    done_at          timestamptz,
    last_error       text,
    UNIQUE (paper_id, kind)
);

CREATE INDEX outbox_due ON outbox (next_attempt_at) WHERE done_at IS NULL;
