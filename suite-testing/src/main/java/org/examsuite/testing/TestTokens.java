package org.examsuite.testing;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.smallrye.jwt.algorithm.SignatureAlgorithm;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.spec.ECGenParameterSpec;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.crypto.spec.SecretKeySpec;
import org.examsuite.common.auth.Jwt;
import org.examsuite.common.auth.KeySet;
import org.examsuite.common.auth.Pem;
import org.examsuite.common.auth.Roles;
import org.examsuite.common.auth.TokenKinds;

/** Tokens for tests: the three real kinds, and the forgeries each service must refuse. */
public final class TestTokens {
    private static final long HOUR = 3600;

    private TestTokens() {
    }

    public static String operator() {
        return operator("op-alice");
    }

    public static String operator(String subject) {
        return sign(TestKeys.OPERATOR.getPrivate(), TokenKinds.DEV_OPERATOR_ISSUER, TokenKinds.OPERATOR_AUDIENCE, subject,
                Map.of("groups", List.of(Roles.OPERATOR)), HOUR);
    }

    /** The issuer of staff tokens in tests (the staff tenant verifies them with a static test key: no provider). */
    public static final String STAFF_ISSUER = "exam-staff-test";

    /**
     * A staff member's token as the organisation's provider issues it: ROLE (admin, author, proctor, grader) in the
     * {@code groups} claim, the organisation in {@code org}, the assigned exams in {@code exams}.
     */
    public static String staff(String role, String org, String... exams) {
        Map<String, Object> claims = new java.util.HashMap<>();
        claims.put("groups", List.of(role));
        claims.put("name", role + " of " + org);
        if (org != null) {
            claims.put("org", org);
        }
        claims.put("exams", List.of(exams));
        return sign(TestKeys.STAFF.getPrivate(), STAFF_ISSUER, TokenKinds.OPERATOR_AUDIENCE, role + "@" + org, claims, HOUR);
    }

    /** A service token of the named service ({@link Roles#SERVICES}), signed with its own key, as it signs them. */
    public static String service(String service) {
        return sign(TestKeys.service(service).getPrivate(), TokenKinds.serviceIssuer(service), TokenKinds.SERVICE_AUDIENCE,
                service, Map.of(), HOUR);
    }

    /** A token claiming to be answer-service's, signed with grading-saga's key: one service speaking for another. */
    public static String serviceSignedWithAnotherServicesKey() {
        return sign(TestKeys.service(Roles.GRADING_SAGA).getPrivate(), TokenKinds.serviceIssuer(Roles.ANSWER_SERVICE),
                TokenKinds.SERVICE_AUDIENCE, Roles.ANSWER_SERVICE, Map.of(), HOUR);
    }

    public static String candidate(String sessionId, String examId, String candidateId, long deviceEpoch) {
        return sign(TestKeys.CANDIDATE.getPrivate(), TokenKinds.CANDIDATE_ISSUER, TokenKinds.CANDIDATE_AUDIENCE, candidateId,
                candidateClaims(sessionId, examId, candidateId, deviceEpoch), HOUR);
    }

    public static String expiredCandidate(String sessionId, String examId, String candidateId, long deviceEpoch) {
        return sign(TestKeys.CANDIDATE.getPrivate(), TokenKinds.CANDIDATE_ISSUER, TokenKinds.CANDIDATE_AUDIENCE, candidateId,
                candidateClaims(sessionId, examId, candidateId, deviceEpoch), -HOUR);
    }

    /** A candidate token with the operator audience. */
    public static String wrongAudienceCandidate(String sessionId, String examId, String candidateId) {
        return sign(TestKeys.CANDIDATE.getPrivate(), TokenKinds.CANDIDATE_ISSUER, TokenKinds.OPERATOR_AUDIENCE, candidateId,
                candidateClaims(sessionId, examId, candidateId, 1), HOUR);
    }

    /** An operator-shaped token from an issuer nobody configured. */
    public static String wrongIssuerOperator() {
        return sign(TestKeys.OPERATOR.getPrivate(), "https://evil.example", TokenKinds.OPERATOR_AUDIENCE, "mallory",
                Map.of("groups", List.of(Roles.OPERATOR)), HOUR);
    }

    /** A token of the operators' issuer that claims the service group: must not reach /internal. */
    public static String operatorClaimingService() {
        return sign(TestKeys.OPERATOR.getPrivate(), TokenKinds.DEV_OPERATOR_ISSUER, TokenKinds.OPERATOR_AUDIENCE, "mallory",
                Map.of("groups", List.of(Roles.OPERATOR, Roles.SERVICE)), HOUR);
    }

    /** A service-shaped token signed with the candidate key. */
    public static String serviceSignedWithCandidateKey() {
        return sign(TestKeys.CANDIDATE.getPrivate(), TokenKinds.serviceIssuer(Roles.ANSWER_SERVICE),
                TokenKinds.SERVICE_AUDIENCE, Roles.ANSWER_SERVICE, Map.of(), HOUR);
    }

    /** An operator token signed by a key nobody trusts. */
    public static String strangerOperator() {
        return sign(TestKeys.STRANGER.getPrivate(), TokenKinds.DEV_OPERATOR_ISSUER, TokenKinds.OPERATOR_AUDIENCE, "mallory",
                Map.of("groups", List.of(Roles.OPERATOR)), HOUR);
    }

    /** A candidate token of the right shape signed by a key nobody trusts. */
    public static String strangerCandidate(String sessionId, String examId, String candidateId, long deviceEpoch) {
        return sign(TestKeys.STRANGER.getPrivate(), TokenKinds.CANDIDATE_ISSUER, TokenKinds.CANDIDATE_AUDIENCE, candidateId,
                candidateClaims(sessionId, examId, candidateId, deviceEpoch), HOUR);
    }

    /** {@code alg: none}: an unsigned candidate token of the right shape. */
    public static String unsignedCandidate(String sessionId, String examId, String candidateId, long deviceEpoch) {
        return base64Json(Map.of("alg", "none", "typ", "JWT")) + "."
                + base64Json(claimsOf(sessionId, examId, candidateId, deviceEpoch)) + ".";
    }

    /**
     * Candidate tokens of the right shape, {@code kid: candidate}, signed with ES256 and with EdDSA by fresh keys of
     * those types (a verifier that took the algorithm from the token would have to refuse them for their key alone),
     * and with RS512 by the real candidate key: the tenants accept only the RS256 that session-service signs.
     */
    public static List<String> otherAlgorithmCandidates(String sessionId, String examId, String candidateId,
            long deviceEpoch) {
        try {
            KeyPairGenerator ec = KeyPairGenerator.getInstance("EC");
            ec.initialize(new ECGenParameterSpec("secp256r1"));
            KeyPairGenerator ed = KeyPairGenerator.getInstance("Ed25519");
            return List.of(
                    candidateSignedWith(ec.generateKeyPair().getPrivate(), SignatureAlgorithm.ES256, sessionId, examId,
                            candidateId, deviceEpoch),
                    candidateSignedWith(ed.generateKeyPair().getPrivate(), SignatureAlgorithm.EDDSA, sessionId, examId,
                            candidateId, deviceEpoch),
                    candidateSignedWith(TestKeys.CANDIDATE.getPrivate(), SignatureAlgorithm.RS512, sessionId, examId,
                            candidateId, deviceEpoch));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * HS256 keyed with the candidate public key's configured text, the RS256/HS256 confusion: a verifier that
     * used the configured key as an HMAC secret for an HS256 token would accept it.
     */
    public static String hmacCandidateWithPublicKey(String sessionId, String examId, String candidateId,
            long deviceEpoch) {
        byte[] secret = Pem.body(Pem.encodePublic(TestKeys.CANDIDATE.getPublic())).getBytes(StandardCharsets.US_ASCII);
        return io.smallrye.jwt.build.Jwt.claims(claimsOf(sessionId, examId, candidateId, deviceEpoch)).jws()
                .algorithm(SignatureAlgorithm.HS256).keyId("candidate").sign(new SecretKeySpec(secret, "HmacSHA256"));
    }

    private static String candidateSignedWith(PrivateKey key, SignatureAlgorithm algorithm, String sessionId,
            String examId, String candidateId, long deviceEpoch) {
        return io.smallrye.jwt.build.Jwt.claims(claimsOf(sessionId, examId, candidateId, deviceEpoch)).jws()
                .algorithm(algorithm).keyId("candidate").sign(key);
    }

    private static Map<String, Object> claimsOf(String sessionId, String examId, String candidateId, long deviceEpoch) {
        long now = Instant.now().getEpochSecond();
        Map<String, Object> claims = new LinkedHashMap<>();
        claims.put("iss", TokenKinds.CANDIDATE_ISSUER);
        claims.put("aud", TokenKinds.CANDIDATE_AUDIENCE);
        claims.put("sub", candidateId);
        claims.put("iat", now);
        claims.put("exp", now + HOUR);
        claims.putAll(candidateClaims(sessionId, examId, candidateId, deviceEpoch));
        return claims;
    }

    /** {@code alg: none}: an unsigned operator token. */
    public static String unsignedOperator() {
        long now = Instant.now().getEpochSecond();
        Map<String, Object> header = Map.of("alg", "none", "typ", "JWT");
        Map<String, Object> claims = new LinkedHashMap<>();
        claims.put("iss", TokenKinds.DEV_OPERATOR_ISSUER);
        claims.put("aud", TokenKinds.OPERATOR_AUDIENCE);
        claims.put("sub", "mallory");
        claims.put("iat", now);
        claims.put("exp", now + HOUR);
        claims.put("groups", List.of(Roles.OPERATOR));
        return base64Json(header) + "." + base64Json(claims) + ".";
    }

    private static String base64Json(Map<String, Object> json) {
        try {
            return Base64.getUrlEncoder().withoutPadding().encodeToString(new ObjectMapper().writeValueAsBytes(json));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    public static String garbage() {
        return Base64.getUrlEncoder().encodeToString("not a token".getBytes(StandardCharsets.UTF_8));
    }

    public static Map<String, Object> candidateClaims(String sessionId, String examId, String candidateId, long deviceEpoch) {
        Map<String, Object> claims = new LinkedHashMap<>();
        claims.put("sessionId", sessionId);
        claims.put("examId", examId);
        claims.put("candidateId", candidateId);
        claims.put("deviceEpoch", deviceEpoch);
        return claims;
    }

    private static String sign(PrivateKey key, String issuer, String audience, String subject, Map<String, ?> extra,
            long lifetimeSeconds) {
        long now = Instant.now().getEpochSecond();
        long issued = lifetimeSeconds < 0 ? now + 2 * lifetimeSeconds : now;
        // kid: the key's thumbprint, as the suite's signers stamp it (the staff and operator tenants ignore it)
        return Jwt.sign(key, KeySet.keyId(key), issuer, audience, subject, issued, now + lifetimeSeconds, extra);
    }
}
