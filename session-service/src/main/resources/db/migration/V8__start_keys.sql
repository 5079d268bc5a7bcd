-- Session starts under an Idempotency-Key (docs/api.md §3.2): a retried or late copy of a start replays
-- the epoch that start got instead of taking the session over from the device that sent it.
CREATE TABLE session_start_key (
    exam_id         text        NOT NULL,
    candidate_id    text        NOT NULL,
    idempotency_key text        NOT NULL,
    -- the epoch and status the start got (0 only inside the transaction that inserts the row)
    device_epoch    integer     NOT NULL,
    created         boolean     NOT NULL,
    started_at      timestamptz NOT NULL,
    PRIMARY KEY (exam_id, candidate_id, idempotency_key),
    FOREIGN KEY (exam_id, candidate_id) REFERENCES candidate (exam_id, candidate_id)
);
