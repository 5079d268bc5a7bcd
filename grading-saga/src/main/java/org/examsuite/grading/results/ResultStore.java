package org.examsuite.grading.results;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.examsuite.grading.db.Db;

/** One result row per paper and run. Marks are stored as the grade step computes them, but shown only once GRADED. */
@ApplicationScoped
public class ResultStore {
    public static final String PENDING = "PENDING";
    public static final String GRADED = "GRADED";
    public static final String NEEDS_REVIEW = "NEEDS_REVIEW";
    public static final String FAILED = "FAILED";

    private static final String COLUMNS = "paper_id, run, saga_id, exam_id, session_id, candidate_id, status, score, "
            + "max_score, marks::text, key_revision, reason, archive_seq, updated_at";

    private final Db db;

    @Inject
    ResultStore(Db db) {
        this.db = db;
    }

    public record ResultRow(String paperId, int run, UUID sagaId, String examId, String sessionId, String candidateId,
            String status, BigDecimal score, BigDecimal maxScore, String marks, Long keyRevision, String reason,
            Long archiveSeq, OffsetDateTime updatedAt) {
        public boolean isFinal() {
            return !PENDING.equals(status);
        }
    }

    public void createPending(Connection c, String paperId, int run, UUID sagaId, String examId, String sessionId)
            throws SQLException {
        try (PreparedStatement insert = c.prepareStatement("INSERT INTO result (paper_id, run, saga_id, exam_id, session_id, "
                + "status) VALUES (?, ?, ?, ?, ?, 'PENDING') ON CONFLICT (paper_id, run) DO NOTHING")) {
            insert.setString(1, paperId);
            insert.setInt(2, run);
            insert.setObject(3, sagaId);
            insert.setString(4, examId);
            insert.setString(5, sessionId);
            insert.executeUpdate();
        }
    }

    /** {@link #createPending} for many (new) sagas in one statement: {@code runs[i]} is graded by saga {@code sagaIds[i]}. */
    public void createPendingAll(Connection c, List<PaperRun> runs, List<UUID> sagaIds) throws SQLException {
        if (runs.isEmpty()) {
            return;
        }
        try (PreparedStatement insert = c.prepareStatement("INSERT INTO result (paper_id, run, saga_id, exam_id, session_id, "
                + "status) SELECT t.paper_id, t.run, t.saga_id, t.exam_id, t.session_id, 'PENDING' "
                + "FROM unnest(?::text[], ?::int[], ?::uuid[], ?::text[], ?::text[]) AS t(paper_id, run, saga_id, exam_id, session_id) "
                + "ON CONFLICT (paper_id, run) DO NOTHING")) {
            insert.setArray(1, c.createArrayOf("text", runs.stream().map(PaperRun::paperId).toArray()));
            insert.setArray(2, c.createArrayOf("int4", runs.stream().map(PaperRun::run).toArray()));
            insert.setArray(3, c.createArrayOf("uuid", sagaIds.toArray()));
            insert.setArray(4, c.createArrayOf("text", runs.stream().map(PaperRun::examId).toArray()));
            insert.setArray(5, c.createArrayOf("text", runs.stream().map(PaperRun::sessionId).toArray()));
            insert.executeUpdate();
        }
    }

    /**
     * The grade step's provisional marks: stored, not shown (the status stays PENDING).
     * Written in the transaction that records the grade step (committed asynchronously like
     * the step log): lost in a crash only together with the step's record, and then the
     * step runs again.
     */
    public void provisional(Connection c, String paperId, int run, String candidateId, BigDecimal score, BigDecimal maxScore,
            String marks, String choices, long keyRevision, String reason) throws SQLException {
        try (PreparedStatement update = c.prepareStatement("UPDATE result SET candidate_id = ?, score = ?, max_score = ?, "
                + "marks = ?::jsonb, choices = ?::jsonb, key_revision = ?, reason = ?, status = 'PENDING', updated_at = now() "
                + "WHERE paper_id = ? AND run = ?")) {
            update.setString(1, candidateId);
            update.setBigDecimal(2, score);
            update.setBigDecimal(3, maxScore);
            update.setString(4, marks);
            update.setString(5, choices);
            update.setLong(6, keyRevision);
            update.setString(7, reason);
            update.setString(8, paperId);
            update.setInt(9, run);
            update.executeUpdate();
        }
    }

    /** The grade step's compensation: provisional marks are voided, so they can never be shown. */
    public void voidMarks(Connection c, String paperId, int run, String reason) throws SQLException {
        try (PreparedStatement update = c.prepareStatement("UPDATE result SET score = NULL, marks = NULL, "
                + "reason = COALESCE(?, reason), updated_at = now() WHERE paper_id = ? AND run = ?")) {
            update.setString(1, reason);
            update.setString(2, paperId);
            update.setInt(3, run);
            update.executeUpdate();
        }
    }

    /**
     * The archived result becomes the shown one: the same marks as the archive record, written
     * in the transaction that appended it.
     */
    public void graded(Connection c, String paperId, int run, long archiveSeq, BigDecimal score, BigDecimal maxScore,
            String marks, long keyRevision, String candidateId) throws SQLException {
        try (PreparedStatement update = c.prepareStatement("UPDATE result SET status = 'GRADED', archive_seq = ?, reason = NULL, "
                + "score = ?, max_score = ?, marks = ?::jsonb, key_revision = ?, candidate_id = COALESCE(?, candidate_id), "
                + "updated_at = now() WHERE paper_id = ? AND run = ?")) {
            update.setLong(1, archiveSeq);
            update.setBigDecimal(2, score);
            update.setBigDecimal(3, maxScore);
            update.setString(4, marks);
            update.setLong(5, keyRevision);
            update.setString(6, candidateId);
            update.setString(7, paperId);
            update.setInt(8, run);
            update.executeUpdate();
        }
    }

    /** A result made GRADED: what {@link #gradedAll} writes for one paper run. */
    public record Graded(String paperId, int run, long archiveSeq, BigDecimal score, BigDecimal maxScore, String marks,
            String choices, long keyRevision, String candidateId) {
    }

    /** {@link #graded} for several results in one statement. */
    public void gradedAll(Connection c, List<Graded> rows) throws SQLException {
        if (rows.isEmpty()) {
            return;
        }
        try (PreparedStatement update = c.prepareStatement("UPDATE result r SET status = 'GRADED', archive_seq = t.seq, "
                + "reason = NULL, score = t.score, max_score = t.max_score, marks = t.marks::jsonb, key_revision = t.revision, "
                + "candidate_id = COALESCE(t.candidate_id, r.candidate_id), choices = COALESCE(t.choices::jsonb, r.choices), "
                + "updated_at = now() "
                + "FROM unnest(?::text[], ?::int[], ?::bigint[], ?::numeric[], ?::numeric[], ?::text[], ?::bigint[], ?::text[], "
                + "?::text[]) AS t(paper_id, run, seq, score, max_score, marks, revision, candidate_id, choices) "
                + "WHERE r.paper_id = t.paper_id AND r.run = t.run")) {
            update.setArray(1, c.createArrayOf("text", rows.stream().map(Graded::paperId).toArray()));
            update.setArray(2, c.createArrayOf("int4", rows.stream().map(Graded::run).toArray()));
            update.setArray(3, c.createArrayOf("int8", rows.stream().map(Graded::archiveSeq).toArray()));
            update.setArray(4, c.createArrayOf("numeric", rows.stream().map(Graded::score).toArray()));
            update.setArray(5, c.createArrayOf("numeric", rows.stream().map(Graded::maxScore).toArray()));
            update.setArray(6, c.createArrayOf("text", rows.stream().map(Graded::marks).toArray()));
            update.setArray(7, c.createArrayOf("int8", rows.stream().map(Graded::keyRevision).toArray()));
            update.setArray(8, c.createArrayOf("text", rows.stream().map(Graded::candidateId).toArray()));
            update.setArray(9, c.createArrayOf("text", rows.stream().map(Graded::choices).toArray()));
            update.executeUpdate();
        }
    }

    public void status(Connection c, String paperId, int run, String status, String reason) throws SQLException {
        try (PreparedStatement update = c.prepareStatement("UPDATE result SET status = ?, reason = ?, updated_at = now() "
                + "WHERE paper_id = ? AND run = ?")) {
            update.setString(1, status);
            update.setString(2, reason);
            update.setString(3, paperId);
            update.setInt(4, run);
            update.executeUpdate();
        }
    }

    /** Every run of a paper, newest first. */
    public List<ResultRow> runs(String paperId) {
        return db.inTransaction(c -> runs(c, paperId, false));
    }

    public List<ResultRow> runs(Connection c, String paperId, boolean forUpdate) throws SQLException {
        try (PreparedStatement select = c.prepareStatement("SELECT " + COLUMNS + " FROM result WHERE paper_id = ? "
                + "ORDER BY run DESC" + (forUpdate ? " FOR UPDATE" : ""))) {
            select.setString(1, paperId);
            return rows(select);
        }
    }

    public boolean isNewestRun(Connection c, String paperId, int run) throws SQLException {
        try (PreparedStatement select = c.prepareStatement("SELECT max(run) FROM result WHERE paper_id = ?")) {
            select.setString(1, paperId);
            try (ResultSet rs = select.executeQuery()) {
                return rs.next() && rs.getInt(1) == run;
            }
        }
    }

    /** The newest run of every paper of an exam. */
    public List<ResultRow> latestOfExam(Connection c, String examId) throws SQLException {
        try (PreparedStatement select = c.prepareStatement("SELECT DISTINCT ON (paper_id) " + COLUMNS
                + " FROM result WHERE exam_id = ? ORDER BY paper_id, run DESC")) {
            select.setString(1, examId);
            return rows(select);
        }
    }

    public Optional<OffsetDateTime> releasedAt(String examId) {
        return db.inTransaction(c -> releasedAt(c, examId));
    }

    Optional<OffsetDateTime> releasedAt(Connection c, String examId) throws SQLException {
        try (PreparedStatement select = c.prepareStatement("SELECT released_at FROM exam_release WHERE exam_id = ?")) {
            select.setString(1, examId);
            try (ResultSet rs = select.executeQuery()) {
                return rs.next() ? Optional.of(rs.getObject(1, OffsetDateTime.class)) : Optional.empty();
            }
        }
    }

    /** Idempotent: the first release stays. */
    boolean release(Connection c, String examId, Timestamp at, String by) throws SQLException {
        try (PreparedStatement insert = c.prepareStatement("INSERT INTO exam_release (exam_id, released_at, released_by) "
                + "VALUES (?, ?, ?) ON CONFLICT (exam_id) DO NOTHING")) {
            insert.setString(1, examId);
            insert.setTimestamp(2, at);
            insert.setString(3, by);
            return insert.executeUpdate() == 1;
        }
    }

    private static List<ResultRow> rows(PreparedStatement select) throws SQLException {
        List<ResultRow> rows = new ArrayList<>();
        try (ResultSet rs = select.executeQuery()) {
            while (rs.next()) {
                long keyRevision = rs.getLong(11);
                Long revision = rs.wasNull() ? null : keyRevision;
                long seq = rs.getLong(13);
                Long archiveSeq = rs.wasNull() ? null : seq;
                rows.add(new ResultRow(rs.getString(1), rs.getInt(2), rs.getObject(3, UUID.class), rs.getString(4),
                        rs.getString(5), rs.getString(6), rs.getString(7), rs.getBigDecimal(8), rs.getBigDecimal(9),
                        rs.getString(10), revision, rs.getString(12), archiveSeq, rs.getObject(14, OffsetDateTime.class)));
            }
        }
        return rows;
    }
}
