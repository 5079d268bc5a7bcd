package org.examsuite.grading.report;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;
import java.io.Serializable;
import java.math.BigDecimal;
import java.time.OffsetDateTime;
import java.util.Objects;
import java.util.UUID;
import org.hibernate.annotations.ColumnTransformer;
import org.hibernate.annotations.Immutable;

/**
 * One run of one paper's result (table {@code result}), read-only: the saga writes results
 * with its own JDBC statements inside its transactions (results/ResultStore, in its group
 * commits), this side only reads them. The JSON columns are read as text and parsed where used.
 */
@Entity
@Table(name = "result")
@IdClass(ResultEntity.Key.class)
@Immutable
public class ResultEntity extends PanacheEntityBase {
    @Id
    @Column(name = "paper_id")
    public String paperId;
    @Id
    public int run;
    @Column(name = "saga_id")
    public UUID sagaId;
    @Column(name = "exam_id")
    public String examId;
    @Column(name = "session_id")
    public String sessionId;
    @Column(name = "candidate_id")
    public String candidateId;
    public String status;
    public BigDecimal score;
    @Column(name = "max_score")
    public BigDecimal maxScore;
    /** {@code [{questionId, type, points, score}]} as JSON text. */
    @Column(columnDefinition = "jsonb")
    @ColumnTransformer(read = "cast(marks as text)")
    public String marks;
    /** scoring/Choices as JSON text; null for results graded before choices were kept. */
    @Column(columnDefinition = "jsonb")
    @ColumnTransformer(read = "cast(choices as text)")
    public String choices;
    @Column(name = "key_revision")
    public Long keyRevision;
    public String reason;
    @Column(name = "archive_seq")
    public Long archiveSeq;
    @Column(name = "updated_at")
    public OffsetDateTime updatedAt;

    /** The primary key (paper_id, run). */
    public static class Key implements Serializable {
        public String paperId;
        public int run;

        public Key() {
        }

        public Key(String paperId, int run) {
            this.paperId = paperId;
            this.run = run;
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Key key && run == key.run && Objects.equals(paperId, key.paperId);
        }

        @Override
        public int hashCode() {
            return Objects.hash(paperId, run);
        }
    }
}
