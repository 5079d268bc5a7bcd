package org.examsuite.session.authoring;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import jakarta.persistence.Version;
import java.time.Instant;

/**
 * An exam being written (table {@code exam_draft}, Flyway's): its document is {@code POST /api/v1/exams}'s body,
 * possibly incomplete, as JSON text. Publishing turns it into the {@code exam} row of the same id and freezes it.
 * {@code version} is the draft's ETag: an edit based on an older one is refused (412).
 */
@Entity
@Table(name = "exam_draft")
public class ExamDraft {
    @Id
    @Column(name = "exam_id")
    public String examId;

    @Enumerated(EnumType.STRING)
    @Column(nullable = false)
    public DraftState state;

    /** The document's title, kept apart for lists; null until the author gives one. */
    public String title;

    @Column(nullable = false)
    public String document;

    /** The organisation it belongs to (its creator's); null for an operator's. */
    public String organisation;

    @Version
    public int version;

    @Column(name = "created_by", nullable = false)
    public String createdBy;

    @Column(name = "created_at", nullable = false)
    public Instant createdAt;

    @Column(name = "updated_by", nullable = false)
    public String updatedBy;

    @Column(name = "updated_at", nullable = false)
    public Instant updatedAt;

    /** The creator's Idempotency-Key and its request's hash: a retried create finds this draft again. */
    @Column(name = "idempotency_key")
    public String idempotencyKey;

    @Column(name = "request_hash")
    public String requestHash;
}
