package org.examsuite.common.auth;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.security.Key;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jose4j.jwa.AlgorithmConstraints;
import org.jose4j.jwt.JwtClaims;
import org.jose4j.jwt.MalformedClaimException;
import org.jose4j.jwt.consumer.InvalidJwtException;
import org.jose4j.jwt.consumer.JwtConsumer;
import org.jose4j.jwt.consumer.JwtConsumerBuilder;
import org.jose4j.jwt.consumer.JwtContext;
import org.jose4j.lang.UnresolvableKeyException;

/**
 * Verifies the suite's own tokens against their key sets ({@link KeySet}): candidate tokens ({@code iss}
 * {@value TokenKinds#CANDIDATE_ISSUER}) and service tokens ({@code iss exam-suite/<service>}, {@code sub <service>},
 * signed with that service's key — so one service cannot speak for another). The token's {@code kid} picks the key,
 * which is what lets two keys verify side by side while a key is rotated. RS256 only; {@code exp} required, 5 s of
 * clock skew, as the OIDC tenants of outside issuers. Tokens of other issuers (operators', staff) are not this
 * verifier's: {@link #isSuiteToken} says no, and OIDC verifies them.
 */
@ApplicationScoped
public class SuiteTokenVerifier {
    /** The kinds of token the suite signs itself; the name is the tenant {@link TenantRoles} grants roles by. */
    public enum Kind {
        CANDIDATE("candidate"), SERVICE("service");

        public final String tenant;

        Kind(String tenant) {
            this.tenant = tenant;
        }
    }

    /** A verified token: its kind, the service that signed it (service tokens), its claims as plain values. */
    public record Verified(Kind kind, String subject, Map<String, Object> claims, long expiresAtSeconds) {
        /** A claim as a string, or null. */
        public String string(String name) {
            Object value = claims.get(name);
            return value == null ? null : value.toString();
        }

        /** A whole-number claim, or null. */
        public Long whole(String name) {
            return claims.get(name) instanceof Long value ? value : null;
        }
    }

    /** Why a suite token was refused (the message is for logs; the caller answers 401). */
    public static final class Refused extends Exception {
        Refused(String message) {
            super(message, null, false, false);
        }
    }

    /** Reads a token's claims before anything is verified: which key set decides is in its issuer. */
    private final JwtConsumer unverified = new JwtConsumerBuilder().setSkipAllValidators()
            .setDisableRequireSignature().setSkipSignatureVerification().build();

    private final JwtConsumer candidates;
    private final Map<String, JwtConsumer> services = new HashMap<>();

    @Inject
    public SuiteTokenVerifier(SuiteKeysConfig config) {
        this.candidates = consumer(KeySet.parse(config.candidate()), TokenKinds.CANDIDATE_ISSUER,
                TokenKinds.CANDIDATE_AUDIENCE, null);
        config.callers().byService().forEach((service, keys) -> {
            KeySet set = KeySet.parse(keys);
            if (!set.isEmpty()) {
                services.put(service, consumer(set, TokenKinds.serviceIssuer(service), TokenKinds.SERVICE_AUDIENCE,
                        service));
            }
        });
    }

    /** Whether this token names one of the suite's own issuers (not verified: a cheap routing decision). */
    public boolean isSuiteToken(String token) {
        return read(token) != null;
    }

    /**
     * The token read but not verified, when it names one of the suite's own issuers; else null. What
     * {@link #verify(JwtContext)} then verifies, so that routing a token and verifying it parse it once.
     */
    public JwtContext read(String token) {
        try {
            JwtContext context = unverified.process(token);
            String issuer = context.getJwtClaims().getIssuer();
            return issuer != null && (issuer.equals(TokenKinds.CANDIDATE_ISSUER) || TokenKinds.serviceOf(issuer) != null)
                    ? context : null;
        } catch (InvalidJwtException | MalformedClaimException | RuntimeException e) {
            return null;
        }
    }

    /** Verifies a suite token in full; {@link Refused} for anything short of that. */
    public Verified verify(String token) throws Refused {
        JwtContext context = read(token);
        if (context == null) {
            throw new Refused("not a JWT of the suite's issuers");
        }
        return verify(context);
    }

    /** Verifies a token {@link #read} gave; {@link Refused} for anything short of that. */
    public Verified verify(JwtContext context) throws Refused {
        String issuer;
        try {
            issuer = context.getJwtClaims().getIssuer();
        } catch (MalformedClaimException e) {
            throw new Refused("no issuer");
        }
        if (issuer == null) {
            throw new Refused("no issuer");
        }
        String service = TokenKinds.serviceOf(issuer);
        JwtConsumer consumer = TokenKinds.CANDIDATE_ISSUER.equals(issuer) ? candidates
                : service != null ? services.get(service) : null;
        if (consumer == null) {
            throw new Refused("no keys for issuer " + issuer);
        }
        try {
            consumer.processContext(context);
            JwtClaims claims = context.getJwtClaims();
            return new Verified(service == null ? Kind.CANDIDATE : Kind.SERVICE, claims.getSubject(), plain(claims),
                    claims.getExpirationTime().getValue());
        } catch (InvalidJwtException | MalformedClaimException e) {
            throw new Refused("token refused: " + e.getMessage());
        }
    }

    private static JwtConsumer consumer(KeySet keys, String issuer, String audience, String subject) {
        JwtConsumerBuilder builder = new JwtConsumerBuilder()
                .setJwsAlgorithmConstraints(AlgorithmConstraints.ConstraintType.PERMIT, "RS256")
                .setVerificationKeyResolver((jws, nesting) -> keyOf(keys, jws.getKeyIdHeaderValue()))
                .setExpectedIssuer(issuer)
                .setExpectedAudience(audience)
                .setRequireExpirationTime()
                .setRequireSubject()
                .setAllowedClockSkewInSeconds(5);
        if (subject != null) { // a service speaks for itself only
            builder.setExpectedSubject(subject);
        }
        return builder.build();
    }

    private static Key keyOf(KeySet keys, String keyId) throws UnresolvableKeyException {
        Key key = keyId == null ? keys.onlyKey() : keys.key(keyId);
        if (key == null) {
            throw new UnresolvableKeyException(keyId == null ? "no kid, and the key set holds more than one key"
                    : "no key " + keyId + " in the key set");
        }
        return key;
    }

    /** The claims as plain values (strings, whole numbers, booleans, sets of strings); others are left out. */
    private static Map<String, Object> plain(JwtClaims claims) {
        Map<String, Object> plain = new LinkedHashMap<>();
        claims.getClaimsMap().forEach((name, value) -> {
            Object kept = VerifiedTokens.plain(value);
            if (kept != null) {
                plain.put(name, kept);
            }
        });
        return plain;
    }
}
