package org.examsuite.session.session;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.security.PrivateKey;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.examsuite.common.auth.Jwt;
import org.examsuite.common.auth.KeySet;
import org.examsuite.common.auth.Pem;
import org.examsuite.common.auth.TokenKinds;

/**
 * Mints candidate tokens (docs/api.md §4): RS256 with the candidate key only session-service
 * holds, short-lived (renewed by the heartbeat), and without a deadline — the deadline is
 * read from the published state, so an extension reaches every service at once.
 */
@ApplicationScoped
public class CandidateTokens {
    private final String privateKeyPem;
    private final Duration ttl;
    private final Clock clock;

    @Inject
    CandidateTokens(CandidateTokenConfig config, Clock clock) {
        this.privateKeyPem = config.auth().candidate().privateKey();
        this.ttl = config.session().tokenTtl();
        this.clock = clock;
    }

    private volatile SigningKey key;

    public record Token(String token, Instant expiresAt) {
    }

    public Token mint(String sessionId, String examId, String candidateId, int deviceEpoch) {
        Instant now = clock.instant();
        Instant expiresAt = now.plus(ttl);
        Map<String, Object> claims = new LinkedHashMap<>();
        claims.put("sessionId", sessionId);
        claims.put("examId", examId);
        claims.put("candidateId", candidateId);
        claims.put("deviceEpoch", deviceEpoch);
        SigningKey signing = signingKey();
        String token = Jwt.sign(signing.key(), signing.keyId(), TokenKinds.CANDIDATE_ISSUER, TokenKinds.CANDIDATE_AUDIENCE, candidateId,
                now.getEpochSecond(), expiresAt.getEpochSecond(), claims);
        return new Token(token, expiresAt);
    }

    /**
     * The heartbeat's renewed token: the caller's own token while more than half of a token's
     * lifetime is left on it, else a new one. A token is valid for its whole lifetime, so a
     * device that beats every 30 s never holds one with less than half of it left; signing a new
     * one on every beat (RS256, ~1.4 ms of CPU, most of a heartbeat's cost: bench/heartbeat)
     * also made answer- and submission-service verify a new token every beat. {@code current}
     * is the verified token of the request; its claims are the session's only when
     * {@code currentEpoch} is the session's device epoch.
     */
    public Token renewed(Token current, long currentEpoch, String sessionId, String examId, String candidateId,
            int deviceEpoch) {
        if (current != null && current.token() != null && currentEpoch == deviceEpoch
                && current.expiresAt().isAfter(clock.instant().plus(ttl.dividedBy(2)))) {
            return current;
        }
        return mint(sessionId, examId, candidateId, deviceEpoch);
    }

    /** The signing key and its key id, read once: the id (a thumbprint) tells verifiers which key of their set. */
    private record SigningKey(PrivateKey key, String keyId) {
    }

    private SigningKey signingKey() {
        SigningKey current = key;
        if (current == null) {
            PrivateKey parsed = Pem.privateKey(privateKeyPem);
            current = new SigningKey(parsed, KeySet.keyId(parsed));
            key = current;
        }
        return current;
    }
}
