package org.examsuite.submission.paper;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import org.erdtman.jcs.JsonCanonicalizer;

/** RFC 8785 (JCS) canonical JSON and SHA-256: body fingerprints and paper digests. */
public final class Canonical {
    private Canonical() {
    }

    /** The canonical form of a JSON text; throws {@link IllegalArgumentException} on invalid JSON. */
    public static String json(String json) {
        try {
            return new JsonCanonicalizer(json).getEncodedString();
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException("not canonicalizable JSON", e);
        }
    }

    /** Lowercase hex SHA-256 of the UTF-8 bytes. */
    public static String sha256Hex(String text) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            return HexFormat.of().formatHex(sha.digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
