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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.examsuite.grading.db.Db;

/**
 * The append-only, hash-chained archive. Every append locks the one head row
 * ({@code FOR UPDATE}), so appends from all replicas queue up behind each other: the
 * sequence has no gaps and each record names the hash of the one before it. Nothing here
 * updates or deletes a record; a correction is a new record.
 */
@ApplicationScoped
public class ArchiveStore {
    private final Db db;
    private final ObjectMapper mapper;
    private final Clock clock;

    @Inject
    ArchiveStore(Db db, ObjectMapper mapper, Clock clock) {
        this.db = db;
        this.mapper = mapper;
        this.clock = clock;
    }

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
        Appended appended = appendAll(c, List.of(new Append(paperId, kind, run, superseded -> payload, false))).get(0);
        if (appended.conflict() != null) {
            throw appended.conflict();
        }
        return appended.record();
    }

    /**
     * One record to append. {@code payload} is built under the head lock; when
     * {@code supersedes} is set it is given the newest record of the same kind for the paper
     * from an earlier run (what a regrade or a re-run supersedes), if any.
     */
    public record Append(String paperId, String kind, int run, Function<Optional<ArchiveRecord>, JsonNode> payload,
            boolean supersedes) {
    }

    /** The outcome of one {@link Append}: the record (new, or the same one already there), or a conflict. */
    public record Appended(ArchiveRecord record, Conflict conflict) {
    }

    /**
     * Appends several records in order, holding the head lock once: one lock, one look-up of
     * the records already there, one multi-row insert and one head update for the lot, and the
     * chain is exactly what appending them one by one would have made (gapless, each naming the
     * hash before it). A conflicting item does not stop the others; a database error fails all
     * of them (the caller's transaction rolls back).
     */
    public List<Appended> appendAll(Connection c, List<Append> appends) throws SQLException {
        return appendAll(c, lockHead(c), appends);
    }

    /**
     * Locks the head row until the caller's transaction ends: from here on no other append
     * (of any replica) can come between, so what the caller checks now still holds when its
     * records are appended.
     */
    public Head lockHead(Connection c) throws SQLException {
        try (PreparedStatement lock = c.prepareStatement("SELECT seq, hash FROM archive_head WHERE id = 1 FOR UPDATE")) {
            try (ResultSet rs = lock.executeQuery()) {
                rs.next();
                return new Head(rs.getLong(1), rs.getString(2));
            }
        }
    }

    /** {@link #appendAll(Connection, List)} with the head the caller locked ({@link #lockHead}) in this transaction. */
    public List<Appended> appendAll(Connection c, Head head, List<Append> appends) throws SQLException {
        if (appends.isEmpty()) {
            return List.of();
        }
        Map<String, ArchiveRecord> known = new HashMap<>();
        try (PreparedStatement select = c.prepareStatement("SELECT " + COLUMNS + " FROM archive_record WHERE (paper_id, kind, run) "
                + "IN (SELECT * FROM unnest(?::text[], ?::text[], ?::int[]))")) {
            select.setArray(1, c.createArrayOf("text", appends.stream().map(Append::paperId).toArray()));
            select.setArray(2, c.createArrayOf("text", appends.stream().map(Append::kind).toArray()));
            select.setArray(3, c.createArrayOf("int4", appends.stream().map(Append::run).toArray()));
            for (ArchiveRecord record : records(select)) {
                known.put(key(record.paperId(), record.kind(), record.run()), record);
            }
        }
        List<Appended> out = new ArrayList<>(appends.size());
        List<ArchiveRecord> fresh = new ArrayList<>();
        long seq = head.seq();
        String prevHash = head.hash();
        for (Append append : appends) {
            Optional<ArchiveRecord> superseded = Optional.empty();
            if (append.supersedes() && append.run() > 1) {
                superseded = latestBefore(c, append.paperId(), append.kind(), append.run());
            }
            String canonical = ChainHash.canonical(append.payload().apply(superseded));
            String key = key(append.paperId(), append.kind(), append.run());
            ArchiveRecord existing = known.get(key);
            if (existing != null) {
                out.add(existing.payload().equals(canonical) ? new Appended(existing, null)
                        : new Appended(null, new Conflict("the archive already holds a different " + append.kind()
                                + " record for paper " + append.paperId() + " run " + append.run() + " (seq " + existing.seq() + ")")));
                continue;
            }
            seq++;
            Instant createdAt = clock.instant().truncatedTo(ChronoUnit.MILLIS);
            String hash = ChainHash.of(mapper, seq, append.paperId(), append.kind(), append.run(), createdAt, prevHash, canonical);
            ArchiveRecord record = new ArchiveRecord(seq, append.paperId(), append.kind(), append.run(), canonical, prevHash, hash,
                    createdAt);
            prevHash = hash;
            fresh.add(record);
            known.put(key, record);
            out.add(new Appended(record, null));
        }
        if (!fresh.isEmpty()) {
            try (PreparedStatement insert = c.prepareStatement("INSERT INTO archive_record (seq, paper_id, kind, run, payload, "
                    + "prev_hash, hash, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")) {
                for (ArchiveRecord record : fresh) {
                    insert.setLong(1, record.seq());
                    insert.setString(2, record.paperId());
                    insert.setString(3, record.kind());
                    insert.setInt(4, record.run());
                    insert.setString(5, record.payload());
                    insert.setString(6, record.prevHash());
                    insert.setString(7, record.hash());
                    insert.setTimestamp(8, Timestamp.from(record.createdAt()));
                    insert.addBatch();
                }
                insert.executeBatch();
            }
            try (PreparedStatement update = c.prepareStatement("UPDATE archive_head SET seq = ?, hash = ? WHERE id = 1")) {
                update.setLong(1, seq);
                update.setString(2, prevHash);
                update.executeUpdate();
            }
        }
        return out;
    }

    private static String key(String paperId, String kind, int run) {
        return paperId + '\u0000' + kind + '\u0000' + run;
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
