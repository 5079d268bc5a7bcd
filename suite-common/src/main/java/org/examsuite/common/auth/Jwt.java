package org.examsuite.common.auth;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.Signature;
import java.util.Base64;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Mints RS256 JWTs. Small on purpose: claims are strings, numbers, booleans and string
 * lists, written by hand, so minting needs no JSON library and no reflection (native-safe),
 * and the same code serves the services, the tests and {@code ./exam token}.
 */
public final class Jwt {
    private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();

    private Jwt() {
    }

    /** Standard claims plus {@code extra}; {@code iat}/{@code exp} in epoch seconds. */
    public static String sign(PrivateKey key, String keyId, String issuer, String audience, String subject,
            long issuedAtSeconds, long expiresAtSeconds, Map<String, ?> extra) {
        Map<String, Object> claims = new LinkedHashMap<>();
        claims.put("iss", issuer);
        claims.put("aud", audience);
        claims.put("sub", subject);
        claims.put("iat", issuedAtSeconds);
        claims.put("exp", expiresAtSeconds);
        claims.put("jti", java.util.UUID.randomUUID().toString());
        claims.putAll(extra);
        Map<String, Object> header = new LinkedHashMap<>();
        header.put("alg", "RS256");
        header.put("typ", "JWT");
        if (keyId != null) {
            header.put("kid", keyId);
        }
        String signingInput = encode(header) + "." + encode(claims);
        try {
            Signature rsa = Signature.getInstance("SHA256withRSA");
            rsa.initSign(key);
            rsa.update(signingInput.getBytes(StandardCharsets.US_ASCII));
            return signingInput + "." + B64.encodeToString(rsa.sign());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("could not sign a token", e);
        }
    }

    public static String encode(Map<String, ?> json) {
        return B64.encodeToString(toJson(json).getBytes(StandardCharsets.UTF_8));
    }

    static String toJson(Object value) {
        StringBuilder out = new StringBuilder();
        write(out, value);
        return out.toString();
    }

    private static void write(StringBuilder out, Object value) {
        if (value == null) {
            out.append("null");
        } else if (value instanceof Number || value instanceof Boolean) {
            out.append(value);
        } else if (value instanceof Map<?, ?> map) {
            out.append('{');
            Iterator<? extends Map.Entry<?, ?>> entries = map.entrySet().iterator();
            while (entries.hasNext()) {
                Map.Entry<?, ?> entry = entries.next();
                write(out, entry.getKey().toString());
                out.append(':');
                write(out, entry.getValue());
                if (entries.hasNext()) {
                    out.append(',');
                }
            }
            out.append('}');
        } else if (value instanceof Collection<?> list) {
            out.append('[');
            Iterator<?> items = list.iterator();
            while (items.hasNext()) {
                write(out, items.next());
                if (items.hasNext()) {
                    out.append(',');
                }
            }
            out.append(']');
        } else {
            out.append('"');
            for (char c : value.toString().toCharArray()) {
                switch (c) {
                    case '"' -> out.append("\\\"");
                    case '\\' -> out.append("\\\\");
                    default -> {
                        if (c < 0x20) {
                            out.append(String.format("\\u%04x", (int) c));
                        } else {
                            out.append(c);
                        }
                    }
                }
            }
            out.append('"');
        }
    }
}
