package org.examsuite.grading.archive;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.examsuite.grading.db.Db;

/**
 * The append-only, hash-chained archive. Every append locks the one head row
 * ({@code FOR UPDATE}), so appends from all replicas queue up behind each other: the
 * sequence has no gaps and each record names the hash of the one before it. Nothing here
 * updates or deletes a record; a correction is a new record.
 */
@ApplicationScoped
public class ArchiveStore {
    @Inject
    Db db;
    @Inject
    ObjectMapper mapper;
    @Inject
    Clock clock;

    public record ArchiveRecord(long seq, String paperId, String kind, int run, String payload, String prevHash, String hash,
            Instant createdAt) {
    }

    public record Head(long seq, String hash) {
    }

    /** The (paper, kind, run) already holds a record with other content: appending must not hide that. */
    public static class Conflict extends RuntimeException {
        Conflict(String message) {
            super(message, null, false, false);
        }
    }

    /**
     * Appends a record, or returns the one already there for (paper, kind, run) when its
     * payload is the same (an idempotent retry). The head lock is held until the caller's
     * transaction commits.
     */
    public ArchiveRecord append(Connection c, String paperId, String kind, int run, JsonNode payload) throws SQLException {
        String canonical = ChainHash.canonical(payload.toString());
        Head head;
        try (PreparedStatement lock = c.prepareStatement("SELECT seq, hash FROM archive_head WHERE id = 1 FOR UPDATE")) {
            try (ResultSet rs = lock.executeQuery()) {
                rs.next();
                head = new Head(rs.getLong(1), rs.getString(2));
            }
        }
        Optional<ArchiveRecord> existing = find(c, paperId, kind, run);
        if (existing.isPresent()) {
            if (existing.get().payload().equals(canonical)) {
                return existing.get();
            }
            throw new Conflict("the archive already holds a different " + kind + " record for paper " + paperId + " run " + run
                    + " (seq " + existing.get().seq() + ")");
        }
        long seq = head.seq() + 1;
        Instant createdAt = clock.instant().truncatedTo(ChronoUnit.MILLIS);
        String hash = ChainHash.of(mapper, seq, paperId, kind, run, createdAt, head.hash(), canonical);
        try (PreparedStatement insert = c.prepareStatement("INSERT INTO archive_record (seq, paper_id, kind, run, payload, "
                + "prev_hash, hash, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")) {
            insert.setLong(1, seq);
            insert.setString(2, paperId);
            insert.setString(3, kind);
            insert.setInt(4, run);
            insert.setString(5, canonical);
            insert.setString(6, head.hash());
            insert.setString(7, hash);
            insert.setTimestamp(8, Timestamp.from(createdAt));
            insert.executeUpdate();
        }
        try (PreparedStatement update = c.prepareStatement("UPDATE archive_head SET seq = ?, hash = ? WHERE id = 1")) {
            update.setLong(1, seq);
            update.setString(2, hash);
            update.executeUpdate();
        }
        return new ArchiveRecord(seq, paperId, kind, run, canonical, head.hash(), hash, createdAt);
    }

    public ArchiveRecord append(String paperId, String kind, int run, JsonNode payload) {
        return db.inTransaction(c -> append(c, paperId, kind, run, payload));
    }

    public Optional<ArchiveRecord> find(Connection c, String paperId, String kind, int run) throws SQLException {
        try (PreparedStatement select = c.prepareStatement("SELECT " + COLUMNS
                + " FROM archive_record WHERE paper_id = ? AND kind = ? AND run = ?")) {
            select.setString(1, paperId);
            select.setString(2, kind);
            select.setInt(3, run);
            List<ArchiveRecord> records = records(select);
            return records.isEmpty() ? Optional.empty() : Optional.of(records.get(0));
        }
    }

    /** The newest record of a kind for a paper from a run before {@code beforeRun}: what a regrade supersedes. */
    public Optional<ArchiveRecord> latestBefore(Connection c, String paperId, String kind, int beforeRun) throws SQLException {
        try (PreparedStatement select = c.prepareStatement("SELECT " + COLUMNS
                + " FROM archive_record WHERE paper_id = ? AND kind = ? AND run < ? ORDER BY run DESC LIMIT 1")) {
            select.setString(1, paperId);
            select.setString(2, kind);
            select.setInt(3, beforeRun);
            List<ArchiveRecord> records = records(select);
            return records.isEmpty() ? Optional.empty() : Optional.of(records.get(0));
        }
    }

    public List<ArchiveRecord> forPaper(String paperId) {
        return db.inTransaction(c -> {
            try (PreparedStatement select = c.prepareStatement("SELECT " + COLUMNS
                    + " FROM archive_record WHERE paper_id = ? ORDER BY seq")) {
                select.setString(1, paperId);
                return records(select);
            }
        });
    }

    public Head head() {
        return db.inTransaction(ArchiveStore::head);
    }

    /**
     * The head, after making sure it is on disk: a synchronous commit flushes the WAL up to
     * itself, and so every asynchronously committed append before it. A head handed out for
     * anchoring can then never be lost in a crash.
     */
    public Head durableHead() {
        return db.inTransaction(c -> {
            try (PreparedStatement xid = c.prepareStatement("SELECT txid_current()")) {
                xid.executeQuery().close();
            }
            return head(c);
        });
    }

    static Head head(Connection c) throws SQLException {
        try (PreparedStatement select = c.prepareStatement("SELECT seq, hash FROM archive_head WHERE id = 1")) {
            try (ResultSet rs = select.executeQuery()) {
                rs.next();
                return new Head(rs.getLong(1), rs.getString(2));
            }
        }
    }

    /** Records after {@code afterSeq} up to {@code upToSeq}, in order: the verifier's pages. */
    List<ArchiveRecord> page(Connection c, long afterSeq, long upToSeq, int limit) throws SQLException {
        try (PreparedStatement select = c.prepareStatement("SELECT " + COLUMNS
                + " FROM archive_record WHERE seq > ? AND seq <= ? ORDER BY seq LIMIT ?")) {
            select.setLong(1, afterSeq);
            select.setLong(2, upToSeq);
            select.setInt(3, limit);
            return records(select);
        }
    }

    private static final String COLUMNS = "seq, paper_id, kind, run, payload, prev_hash, hash, created_at";

    private static List<ArchiveRecord> records(PreparedStatement select) throws SQLException {
        List<ArchiveRecord> records = new ArrayList<>();
        try (ResultSet rs = select.executeQuery()) {
            while (rs.next()) {
                records.add(new ArchiveRecord(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getInt(4), rs.getString(5),
                        rs.getString(6), rs.getString(7), rs.getObject(8, OffsetDateTime.class).toInstant()));
            }
        }
        return records;
    }
}
