package org.examsuite.common.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.security.KeyPair;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The suite's own tokens against their key sets: kid-picked keys, rotation overlap, one service per key. */
class SuiteTokenVerifierTest {
    private static final KeyPair CANDIDATE_OLD = Pem.generateRsa();
    private static final KeyPair CANDIDATE_NEW = Pem.generateRsa();
    private static final KeyPair ANSWER = Pem.generateRsa();
    private static final KeyPair GRADING = Pem.generateRsa();

    private static SuiteTokenVerifier verifier(String candidateKeys) {
        return new SuiteTokenVerifier(new SuiteKeysConfig() {
            @Override
            public String candidate() {
                return candidateKeys;
            }

            @Override
            public Callers callers() {
                return new Callers() {
                    @Override
                    public Optional<String> sessionService() {
                        return Optional.empty(); // given no keys: refused
                    }

                    @Override
                    public Optional<String> answerService() {
                        return Optional.of(Pem.encodePublic(ANSWER.getPublic()));
                    }

                    @Override
                    public Optional<String> submissionService() {
                        return Optional.empty();
                    }

                    @Override
                    public Optional<String> gradingSaga() {
                        return Optional.of(Pem.body(Pem.encodePublic(GRADING.getPublic())));
                    }
                };
            }
        });
    }

    private static String candidate(KeyPair key, String keyId) {
        long now = System.currentTimeMillis() / 1000;
        return Jwt.sign(key.getPrivate(), keyId, TokenKinds.CANDIDATE_ISSUER, TokenKinds.CANDIDATE_AUDIENCE, "c1", now,
                now + 600, Map.of("sessionId", "s1", "deviceEpoch", 2));
    }

    private static String service(KeyPair key, String issuerService, String subject) {
        long now = System.currentTimeMillis() / 1000;
        return Jwt.sign(key.getPrivate(), KeySet.keyId(key.getPrivate()), TokenKinds.serviceIssuer(issuerService),
                TokenKinds.SERVICE_AUDIENCE, subject, now, now + 300, Map.of());
    }

    private static String pem(KeyPair key) {
        return Pem.encodePublic(key.getPublic());
    }

    @Test
    void aKeyIdIsTheKeysThumbprintFromEitherHalf() {
        assertEquals(KeySet.keyId(CANDIDATE_OLD.getPublic()), KeySet.keyId(CANDIDATE_OLD.getPrivate()));
        assertFalse(KeySet.keyId(CANDIDATE_OLD.getPublic()).equals(KeySet.keyId(CANDIDATE_NEW.getPublic())));
        KeySet two = KeySet.parse(pem(CANDIDATE_OLD) + "," + Pem.body(pem(CANDIDATE_NEW)));
        assertEquals(List.of(KeySet.keyId(CANDIDATE_OLD.getPublic()), KeySet.keyId(CANDIDATE_NEW.getPublic())),
                two.keyIds());
        assertTrue(KeySet.parse("  ").isEmpty());
        assertThrows(IllegalStateException.class, () -> KeySet.parse(Pem.encodePrivate(ANSWER.getPrivate())));
        assertThrows(IllegalStateException.class, () -> KeySet.parse("bm90IGEga2V5"));
    }

    @Test
    void duringARotationTokensOfTheOldAndTheNewKeyVerify() throws Exception {
        String old = candidate(CANDIDATE_OLD, KeySet.keyId(CANDIDATE_OLD.getPrivate()));
        String fresh = candidate(CANDIDATE_NEW, KeySet.keyId(CANDIDATE_NEW.getPrivate()));
        SuiteTokenVerifier before = verifier(pem(CANDIDATE_OLD));
        SuiteTokenVerifier overlap = verifier(pem(CANDIDATE_OLD) + "\n" + pem(CANDIDATE_NEW));
        SuiteTokenVerifier after = verifier(pem(CANDIDATE_NEW));

        assertEquals("s1", before.verify(old).string("sessionId"));
        assertThrows(SuiteTokenVerifier.Refused.class, () -> before.verify(fresh));
        assertEquals(SuiteTokenVerifier.Kind.CANDIDATE, overlap.verify(old).kind());
        assertEquals(2L, overlap.verify(fresh).whole("deviceEpoch"));
        assertThrows(SuiteTokenVerifier.Refused.class, () -> after.verify(old), "the old key is gone: its tokens too");
        assertEquals("c1", after.verify(fresh).subject());
    }

    @Test
    void aTokenWithoutKeyIdVerifiesOnlyAgainstASetOfOne() throws Exception {
        String noKid = candidate(CANDIDATE_OLD, null);
        assertEquals("c1", verifier(pem(CANDIDATE_OLD)).verify(noKid).subject());
        assertThrows(SuiteTokenVerifier.Refused.class,
                () -> verifier(pem(CANDIDATE_OLD) + pem(CANDIDATE_NEW)).verify(noKid));
        assertThrows(SuiteTokenVerifier.Refused.class,
                () -> verifier(pem(CANDIDATE_NEW)).verify(candidate(CANDIDATE_OLD, "made-up")));
    }

    @Test
    void aServiceSpeaksOnlyForItselfWithItsOwnKey() throws Exception {
        SuiteTokenVerifier verifier = verifier(pem(CANDIDATE_OLD));
        SuiteTokenVerifier.Verified answer = verifier.verify(service(ANSWER, Roles.ANSWER_SERVICE, Roles.ANSWER_SERVICE));
        assertEquals(SuiteTokenVerifier.Kind.SERVICE, answer.kind());
        assertEquals(Roles.ANSWER_SERVICE, answer.subject());
        // answer-service's key cannot make grading-saga's token, nor its own claim another subject
        assertThrows(SuiteTokenVerifier.Refused.class,
                () -> verifier.verify(service(ANSWER, Roles.GRADING_SAGA, Roles.GRADING_SAGA)));
        assertThrows(SuiteTokenVerifier.Refused.class,
                () -> verifier.verify(service(ANSWER, Roles.ANSWER_SERVICE, Roles.GRADING_SAGA)));
        // a service with no keys configured is nobody; the shared issuer of old is nobody's
        assertThrows(SuiteTokenVerifier.Refused.class,
                () -> verifier.verify(service(ANSWER, Roles.SESSION_SERVICE, Roles.SESSION_SERVICE)));
        long now = System.currentTimeMillis() / 1000;
        String legacy = Jwt.sign(ANSWER.getPrivate(), null, "exam-suite", TokenKinds.SERVICE_AUDIENCE, "x", now,
                now + 60, Map.of());
        assertFalse(verifier.isSuiteToken(legacy));
        assertTrue(verifier.isSuiteToken(service(ANSWER, Roles.ANSWER_SERVICE, Roles.ANSWER_SERVICE)));
        // a candidate key does not make service tokens, nor a service key candidate tokens
        assertThrows(SuiteTokenVerifier.Refused.class, () -> verifier.verify(candidate(ANSWER, null)));
    }

    @Test
    void expiredAndWrongAudienceTokensAreRefused() {
        SuiteTokenVerifier verifier = verifier(pem(CANDIDATE_OLD));
        long now = System.currentTimeMillis() / 1000;
        String expired = Jwt.sign(CANDIDATE_OLD.getPrivate(), null, TokenKinds.CANDIDATE_ISSUER,
                TokenKinds.CANDIDATE_AUDIENCE, "c1", now - 100, now - 10, Map.of());
        String audience = Jwt.sign(CANDIDATE_OLD.getPrivate(), null, TokenKinds.CANDIDATE_ISSUER,
                TokenKinds.OPERATOR_AUDIENCE, "c1", now, now + 100, Map.of());
        assertThrows(SuiteTokenVerifier.Refused.class, () -> verifier.verify(expired));
        assertThrows(SuiteTokenVerifier.Refused.class, () -> verifier.verify(audience));
        assertThrows(SuiteTokenVerifier.Refused.class, () -> verifier.verify("garbage"));
    }
}
