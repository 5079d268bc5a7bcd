package org.examsuite.tools;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.security.PrivateKey;
import org.examsuite.common.auth.Jwt;
import org.examsuite.common.auth.KeySet;
import org.examsuite.common.auth.Roles;
import org.examsuite.common.auth.TokenKinds;

/**
 * Tokens for the local suite, signed with the dev keys. Operator tokens stand in for the
 * organisation's OIDC issuer (docs/api.md §4); service tokens let a person call {@code /internal}
 * by hand when debugging. Candidate tokens are never minted here: only session-service does that.
 */
public final class DevTokens {
    public static final String DEFAULT_OPERATOR_ISSUER = "exam-operator-dev";
    public static final Duration OPERATOR_LIFETIME = Duration.ofHours(8);
    public static final Duration SERVICE_LIFETIME = Duration.ofMinutes(15);

    private final DevKeys keys;
    private final Clock clock;

    public DevTokens(DevKeys keys, Clock clock) {
        this.keys = keys;
        this.clock = clock;
    }

    public String operator(String subject, String issuer) throws IOException {
        return sign("operator", issuer, "exam-operator", subject, OPERATOR_LIFETIME, "operator");
    }

    /** SERVICE's own token ({@link Roles#SERVICES}), as that service signs it: reaches what SERVICE may call. */
    public String service(String service) throws IOException {
        if (!Roles.SERVICES.contains(service)) {
            throw new IllegalArgumentException("no such service: " + service + " (one of " + Roles.SERVICES + ")");
        }
        long now = clock.instant().getEpochSecond();
        PrivateKey key = keys.privateKey(service);
        return Jwt.sign(key, KeySet.keyId(key), TokenKinds.serviceIssuer(service), TokenKinds.SERVICE_AUDIENCE, service,
                now, now + SERVICE_LIFETIME.toSeconds(), Map.of());
    }

    private String sign(String key, String issuer, String audience, String subject, Duration lifetime, String group)
            throws IOException {
        long now = clock.instant().getEpochSecond();
        return Jwt.sign(keys.privateKey(key), key + "-dev", issuer, audience, subject, now, now + lifetime.toSeconds(),
                Map.of("groups", List.of(group), "upn", subject));
    }
}
