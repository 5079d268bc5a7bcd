package org.examsuite.grading.archive;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.util.List;
import org.examsuite.grading.archive.ArchiveStore.ArchiveRecord;
import org.examsuite.grading.archive.ArchiveStore.Head;
import org.examsuite.grading.db.Db;

/**
 * Walks the chain from the first record to the head and reports the first broken link:
 * a gap in the sequence, a record whose {@code prevHash} is not its predecessor's hash,
 * a record whose content no longer gives its hash (edited in SQL), or a head that does not
 * match the last record. One snapshot (REPEATABLE READ), so appends meanwhile don't confuse it.
 */
@ApplicationScoped
public class ArchiveVerifier {
    private static final int PAGE = 1000;

    private final Db db;
    private final ArchiveStore store;
    private final ObjectMapper mapper;

    @Inject
    ArchiveVerifier(Db db, ArchiveStore store, ObjectMapper mapper) {
        this.db = db;
        this.store = store;
        this.mapper = mapper;
    }

    @RegisterForReflection
    public record BrokenLink(long seq, String paperId, String kind, Integer run, String reason) {
    }

    @RegisterForReflection
    public record Verification(boolean valid, long records, long headSeq, String headHash, BrokenLink firstBroken) {
    }

    public Verification verify() {
        return db.inTransaction(Connection.TRANSACTION_REPEATABLE_READ, c -> {
            Head head = ArchiveStore.head(c);
            long expectedSeq = 1;
            String previousHash = ChainHash.GENESIS;
            long checked = 0;
            while (true) {
                List<ArchiveRecord> page = store.page(c, expectedSeq - 1, head.seq(), PAGE);
                if (page.isEmpty()) {
                    break;
                }
                for (ArchiveRecord record : page) {
                    String reason = null;
                    if (record.seq() != expectedSeq) {
                        return broken(head, checked, new BrokenLink(expectedSeq, null, null, null, "SEQUENCE_GAP"));
                    }
                    if (!record.prevHash().equals(previousHash)) {
                        reason = "PREVIOUS_HASH_MISMATCH";
                    } else if (!rehash(record).equals(record.hash())) {
                        reason = "HASH_MISMATCH";
                    }
                    if (reason != null) {
                        return broken(head, checked,
                                new BrokenLink(record.seq(), record.paperId(), record.kind(), record.run(), reason));
                    }
                    previousHash = record.hash();
                    expectedSeq++;
                    checked++;
                }
            }
            if (expectedSeq - 1 != head.seq()) {
                return broken(head, checked, new BrokenLink(expectedSeq, null, null, null, "SEQUENCE_GAP"));
            }
            if (!previousHash.equals(head.hash())) {
                return broken(head, checked, new BrokenLink(head.seq(), null, null, null, "HEAD_MISMATCH"));
            }
            return new Verification(true, checked, head.seq(), head.hash(), null);
        });
    }

    private String rehash(ArchiveRecord record) {
        String canonical;
        try {
            canonical = ChainHash.canonical(record.payload());
        } catch (IllegalArgumentException e) {
            return "unparseable";
        }
        if (!canonical.equals(record.payload())) {
            return "not canonical";
        }
        return ChainHash.of(mapper, record.seq(), record.paperId(), record.kind(), record.run(), record.createdAt(),
                record.prevHash(), record.payload());
    }

    private static Verification broken(Head head, long checked, BrokenLink link) {
        return new Verification(false, checked, head.seq(), head.hash(), link);
    }
}
