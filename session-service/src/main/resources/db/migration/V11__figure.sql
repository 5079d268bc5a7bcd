-- Figures in questions (authoring/, Hibernate Reactive Panache): images an author uploads to a draft, stored by
-- the SHA-256 of their bytes (an SVG's after sanitising), per exam: a candidate or staff member who reaches the
-- exam reaches its figures, and a duplicated exam takes copies. varchar, as in V10, for Hibernate's validation.
CREATE TABLE figure (
    exam_id varchar NOT NULL,
    figure_id varchar NOT NULL,
    media_type varchar NOT NULL CHECK (media_type IN ('image/png', 'image/jpeg', 'image/svg+xml')),
    content bytea NOT NULL,
    size_bytes integer NOT NULL,
    width integer,
    height integer,
    created_by varchar NOT NULL,
    created_at timestamptz NOT NULL,
    PRIMARY KEY (exam_id, figure_id)
);
