package org.examsuite.common.auth;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.security.PrivateKey;
import java.time.Clock;
import java.util.Map;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Service tokens for calls to another service's {@code /internal} API: this service's own identity
 * ({@code iss exam-suite/<name>}, {@code sub <name>}, the name being {@code quarkus.application.name}), signed with
 * its own service key and naming it by {@code kid} ({@link KeySet#keyId}), so that a callee verifies it with this
 * service's key set and grants only {@link Roles#fromService} of this name. Minted once and reused until a minute
 * before expiry so the hot path signs nothing.
 */
@ApplicationScoped
public class ServiceTokens {
    private static final long LIFETIME_SECONDS = 300;

    private final String privateKeyPem;
    private final String serviceName;
    private final Clock clock;

    @Inject
    ServiceTokens(ServiceKeyConfig config, @ConfigProperty(name = "quarkus.application.name") String serviceName,
            Clock clock) {
        this.privateKeyPem = config.privateKey();
        this.serviceName = serviceName;
        this.clock = clock;
    }

    private volatile PrivateKey key;
    private volatile String keyId;
    private volatile String token;
    private volatile long renewAtSeconds;

    public String bearer() {
        long now = clock.millis() / 1000;
        String current = token;
        if (current == null || now >= renewAtSeconds) {
            synchronized (this) {
                if (token == null || now >= renewAtSeconds) {
                    if (key == null) {
                        key = Pem.privateKey(privateKeyPem);
                        keyId = KeySet.keyId(key);
                    }
                    token = Jwt.sign(key, keyId, TokenKinds.serviceIssuer(serviceName), TokenKinds.SERVICE_AUDIENCE,
                            serviceName, now, now + LIFETIME_SECONDS, Map.of());
                    renewAtSeconds = now + LIFETIME_SECONDS - 60;
                }
                current = token;
            }
        }
        return "Bearer " + current;
    }
}
