package org.examsuite.demo.fuzz;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Hostile bearer tokens made from a real candidate token: expired, for another audience or issuer (both signed
 * with the real candidate key when {@code --keys} names it), signed by a stranger's key, {@code alg: none},
 * tampered claims, and plain garbage. Each must get 401 (or 403 for a valid token of the wrong kind or session).
 */
final class Tokens {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();

    /** A forged token and why it must not pass. */
    record Forged(String kind, String token) {
    }

    private Tokens() {
    }

    static List<Forged> forge(String realCandidateToken, PrivateKey candidateKey) throws GeneralSecurityException {
        String[] parts = realCandidateToken.split("\\.");
        ObjectNode header = (ObjectNode) read(parts[0]);
        ObjectNode claims = (ObjectNode) read(parts[1]);
        List<Forged> forged = new ArrayList<>();
        PrivateKey stranger = KeyPairGenerator.getInstance("RSA").generateKeyPair().getPrivate();
        forged.add(new Forged("signed-by-another-key", sign(header, claims, stranger)));
        ObjectNode none = header.deepCopy().put("alg", "none");
        forged.add(new Forged("alg-none", enc(none) + "." + enc(claims) + "."));
        forged.add(new Forged("alg-none-kept-signature", enc(none) + "." + enc(claims) + "." + parts[2]));
        ObjectNode hs = header.deepCopy().put("alg", "HS256");
        forged.add(new Forged("alg-hs256", enc(hs) + "." + enc(claims) + "." + parts[2]));
        ObjectNode tampered = claims.deepCopy().put("deviceEpoch", claims.path("deviceEpoch").asLong() + 5);
        forged.add(new Forged("tampered-claims", parts[0] + "." + enc(tampered) + "." + parts[2]));
        forged.add(new Forged("truncated-signature", parts[0] + "." + parts[1] + "." + parts[2].substring(0, parts[2].length() / 2)));
        forged.add(new Forged("garbage", "not-a-jwt"));
        forged.add(new Forged("empty", ""));
        forged.add(new Forged("two-dots", ".."));
        forged.add(new Forged("huge", "a".repeat(8000)));
        if (candidateKey != null) {
            long now = System.currentTimeMillis() / 1000;
            forged.add(new Forged("expired", sign(header, claims.deepCopy().put("iat", now - 7200).put("exp", now - 3600), candidateKey)));
            forged.add(new Forged("other-audience", sign(header, claims.deepCopy().put("aud", "exam-operator"), candidateKey)));
            forged.add(new Forged("other-issuer", sign(header, claims.deepCopy().put("iss", "exam-suite"), candidateKey)));
            forged.add(new Forged("no-exp", sign(header, without(claims, "exp"), candidateKey)));
        }
        return forged;
    }

    static PrivateKey readPrivateKey(Path pem) throws IOException, GeneralSecurityException {
        String text = Files.readString(pem).replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
        return KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(text)));
    }

    private static ObjectNode without(ObjectNode claims, String name) {
        ObjectNode copy = claims.deepCopy();
        copy.remove(name);
        return copy;
    }

    private static String sign(JsonNode header, JsonNode claims, PrivateKey key) throws GeneralSecurityException {
        String input = enc(header) + "." + enc(claims);
        Signature rsa = Signature.getInstance("SHA256withRSA");
        rsa.initSign(key);
        rsa.update(input.getBytes(StandardCharsets.US_ASCII));
        return input + "." + B64.encodeToString(rsa.sign());
    }

    private static JsonNode read(String part) {
        try {
            return JSON.readTree(Base64.getUrlDecoder().decode(part));
        } catch (IOException e) {
            throw new IllegalArgumentException("not a JWT part", e);
        }
    }

    private static String enc(JsonNode node) {
        try {
            return B64.encodeToString(JSON.writeValueAsBytes(node));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    static String claim(String token, String name) {
        JsonNode claims = read(token.split("\\.")[1]);
        Iterator<Map.Entry<String, JsonNode>> fields = claims.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> field = fields.next();
            if (field.getKey().equals(name)) {
                return field.getValue().asText();
            }
        }
        return null;
    }
}
