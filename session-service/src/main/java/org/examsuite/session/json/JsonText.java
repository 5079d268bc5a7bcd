package org.examsuite.session.json;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** Our own values (maps, registered records) always serialise; a failure is a bug, not bad input. */
public final class JsonText {
    private JsonText() {
    }

    /** The SHA-256 of VALUE's JSON, hex: an Idempotency-Key's request, to tell a retry from another request. */
    public static String sha256(ObjectMapper json, Object value) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(write(json, value).getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    public static String write(ObjectMapper json, Object value) {
        try {
            return json.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("could not write " + value.getClass().getSimpleName() + " as JSON", e);
        }
    }
}
