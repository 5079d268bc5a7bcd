package org.examsuite.demo.drill;

import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.interfaces.RSAPrivateCrtKey;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.examsuite.demo.drill.Topology.Replica;
import org.examsuite.demo.drill.Topology.Service;

/**
 * Asks every replica, on its own port, whether it takes tokens of the old and of the new keys of a rotation: a token is
 * taken when the answer is anything but 401 (a 403 or 404 of an authenticated caller will do: the probe reads nothing
 * and changes nothing). The demo's traffic cannot show it alone: its candidates hold the tokens they got at start
 * (renewed only when half of their 15 minutes is gone), so few new-key tokens reach the services during a drill.
 */
final class TokenProbe {
    /** A GET of each service that needs a verified caller (candidate or service: 403 for the wrong role). */
    private static final Map<Service, String> PATHS = Map.of(Service.SESSION, "/api/v1/sessions/%s",
            Service.ANSWER, "/api/v1/answers/%s", Service.SUBMISSION, "/api/v1/submissions/%s",
            Service.GRADING, "/api/v1/results/%s");

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    /** A token to probe with: what it is ("candidate key, new"), and the token. */
    record Probe(String what, String token) {
    }

    /** What refused which token: "answer-b: candidate key (new) 401"; empty when every answering replica took all. */
    List<String> refusals(List<Probe> probes) throws InterruptedException {
        List<String> refused = new ArrayList<>();
        for (Replica r : Topology.REPLICAS) {
            for (Probe probe : probes) {
                int status = status(r, probe.token());
                if (status == 401) {
                    refused.add(r + ": " + probe.what() + " 401");
                }
            }
        }
        return refused;
    }

    private int status(Replica r, String token) throws InterruptedException {
        String path = String.format(PATHS.get(r.service()), UUID.randomUUID());
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + r.port() + path))
                .timeout(Duration.ofSeconds(5)).header("Authorization", "Bearer " + token).GET().build();
        for (int attempt = 0; attempt < 3; attempt++) {
            try {
                return http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
            } catch (java.io.IOException e) {
                Thread.sleep(1000); // killed or restarting: its sibling is asked anyway
            }
        }
        return 0;
    }

    /** A candidate token as session-service signs it (docs/api.md §4), for a session nobody has. */
    static Probe candidate(String what, PrivateKey key) {
        String session = UUID.randomUUID().toString();
        return new Probe(what, sign(key, Map.of("iss", "exam-session", "aud", "exam-candidate", "sub", "probe",
                "sessionId", session, "examId", "probe", "candidateId", "probe", "deviceEpoch", 1)));
    }

    /** SERVICE's own token, as it signs its /internal calls. */
    static Probe service(String what, Service service, PrivateKey key) {
        return new Probe(what, sign(key, Map.of("iss", "exam-suite/" + service.module, "aud", "exam-internal",
                "sub", service.module)));
    }

    private static String sign(PrivateKey key, Map<String, Object> claims) {
        long now = System.currentTimeMillis() / 1000;
        Map<String, Object> all = new LinkedHashMap<>(claims);
        all.put("iat", now);
        all.put("exp", now + 300);
        StringBuilder json = new StringBuilder("{");
        all.forEach((name, value) -> json.append(json.length() > 1 ? "," : "").append('"').append(name).append("\":")
                .append(value instanceof String ? "\"" + value + "\"" : value.toString()));
        json.append('}');
        Base64.Encoder b64 = Base64.getUrlEncoder().withoutPadding();
        String input = b64.encodeToString(("{\"alg\":\"RS256\",\"typ\":\"JWT\",\"kid\":\"" + keyId(key) + "\"}")
                .getBytes(StandardCharsets.UTF_8)) + "." + b64.encodeToString(json.toString().getBytes(StandardCharsets.UTF_8));
        try {
            Signature rsa = Signature.getInstance("SHA256withRSA");
            rsa.initSign(key);
            rsa.update(input.getBytes(StandardCharsets.US_ASCII));
            return input + "." + b64.encodeToString(rsa.sign());
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The key's id as the suite computes it: the RFC 7638 SHA-256 thumbprint of its public half. */
    static String keyId(PrivateKey key) {
        RSAPrivateCrtKey rsa = (RSAPrivateCrtKey) key;
        return thumbprint(rsa.getModulus(), rsa.getPublicExponent());
    }

    static String thumbprint(BigInteger modulus, BigInteger exponent) {
        String jwk = "{\"e\":\"" + unsigned(exponent) + "\",\"kty\":\"RSA\",\"n\":\"" + unsigned(modulus) + "\"}";
        try {
            return Base64.getUrlEncoder().withoutPadding().encodeToString(
                    MessageDigest.getInstance("SHA-256").digest(jwk.getBytes(StandardCharsets.UTF_8)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String unsigned(BigInteger value) {
        byte[] bytes = value.toByteArray();
        if (bytes.length > 1 && bytes[0] == 0) {
            bytes = java.util.Arrays.copyOfRange(bytes, 1, bytes.length);
        }
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}
