package org.examsuite.grading.archive;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;
import org.erdtman.jcs.JsonCanonicalizer;

/**
 * The archive's hash: lowercase hex SHA-256 over the RFC 8785 canonical JSON of
 * {@code {seq, paperId, kind, run, createdAt, prevHash, payload}}, where {@code payload} is
 * the record's canonical JSON text. Every column of a record is covered, and each record
 * covers its predecessor through {@code prevHash}.
 */
public final class ChainHash {
    public static final String GENESIS = "0".repeat(64);

    private ChainHash() {
    }

    public static String of(ObjectMapper mapper, long seq, String paperId, String kind, int run, Instant createdAt,
            String prevHash, String payload) {
        ObjectNode node = mapper.createObjectNode();
        node.put("seq", seq);
        node.put("paperId", paperId);
        node.put("kind", kind);
        node.put("run", run);
        node.put("createdAt", createdAt.toString());
        node.put("prevHash", prevHash);
        node.put("payload", payload);
        return sha256(canonical(node.toString()));
    }

    /** RFC 8785 canonical form of a JSON text. */
    public static String canonical(String json) {
        try {
            return new JsonCanonicalizer(json).getEncodedString();
        } catch (IOException e) {
            throw new IllegalArgumentException("not canonicalisable JSON: " + e.getMessage());
        }
    }

    public static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
