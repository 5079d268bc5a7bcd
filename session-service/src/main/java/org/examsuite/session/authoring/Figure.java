package org.examsuite.session.authoring;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;
import java.io.Serializable;
import java.time.Instant;
import java.util.Objects;

/**
 * An image in an exam's questions (table {@code figure}, Flyway's V11): content-addressed within its exam — the id is
 * the SHA-256 of the bytes as stored — so uploading the same image again finds it, and it never changes.
 */
@Entity
@Table(name = "figure")
@IdClass(Figure.Key.class)
public class Figure {
    @Id
    @Column(name = "exam_id")
    public String examId;

    /** Hex SHA-256 of {@link #content}. */
    @Id
    @Column(name = "figure_id")
    public String figureId;

    @Column(name = "media_type", nullable = false)
    public String mediaType;

    @Column(nullable = false)
    public byte[] content;

    @Column(name = "size_bytes", nullable = false)
    public int sizeBytes;

    /** Pixels of a PNG or JPEG; an SVG's are its own. */
    public Integer width;

    public Integer height;

    @Column(name = "created_by", nullable = false)
    public String createdBy;

    @Column(name = "created_at", nullable = false)
    public Instant createdAt;

    /** The primary key (exam_id, figure_id). */
    public static class Key implements Serializable {
        public String examId;
        public String figureId;

        public Key() {
        }

        public Key(String examId, String figureId) {
            this.examId = examId;
            this.figureId = figureId;
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Key key && Objects.equals(examId, key.examId) && Objects.equals(figureId, key.figureId);
        }

        @Override
        public int hashCode() {
            return Objects.hash(examId, figureId);
        }
    }
}
