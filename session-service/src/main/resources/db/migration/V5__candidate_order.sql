-- Order and pools per candidate (fixed at creation; NULL: an exam created before, or without them).
-- A session's order is computed from its id (CandidateOrder.seedOf), so the session table needs nothing.
ALTER TABLE exam ADD COLUMN shuffle jsonb;
ALTER TABLE exam ADD COLUMN pools jsonb;
