package org.examsuite.testing;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.security.KeyPair;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Collectors;
import org.examsuite.common.auth.Pem;
import org.examsuite.common.auth.Roles;

/**
 * Fresh key pairs for one test JVM (nothing is committed), handed to the service under
 * test as configuration: {@code @QuarkusTestResource(TestKeys.class)}. {@link TestTokens}
 * signs with the same pairs.
 */
public class TestKeys implements QuarkusTestResourceLifecycleManager {
    static final KeyPair CANDIDATE = Pem.generateRsa();
    static final KeyPair OPERATOR = Pem.generateRsa();
    /** Each service's own key pair (its service tokens), by name. */
    static final Map<String, KeyPair> SERVICES = Roles.SERVICES.stream()
            .collect(Collectors.toUnmodifiableMap(name -> name, name -> Pem.generateRsa()));
    /** The organisation's identity provider's key (the staff tenant's; discovery is off in tests). */
    static final KeyPair STAFF = Pem.generateRsa();
    /** Signs papers (submission-service) — verified by grading-saga. */
    public static final KeyPair PAPER = Pem.generateRsa();
    /** Signs the archive head (grading-saga). */
    public static final KeyPair ARCHIVE = Pem.generateRsa();
    /** A key no service trusts: tokens signed with it must be refused. */
    static final KeyPair STRANGER = Pem.generateRsa();

    @Override
    public Map<String, String> start() {
        return config();
    }

    public static Map<String, String> config() {
        Map<String, String> config = new HashMap<>();
        config.put("exam.auth.keys.candidate", Pem.body(Pem.encodePublic(CANDIDATE.getPublic())));
        SERVICES.forEach((name, pair) -> config.put("exam.auth.keys.callers." + name,
                Pem.body(Pem.encodePublic(pair.getPublic()))));
        config.put("quarkus.oidc.operator.public-key", Pem.body(Pem.encodePublic(OPERATOR.getPublic())));
        config.put("quarkus.oidc.staff.tenant-enabled", "true");
        config.put("quarkus.oidc.staff.discovery-enabled", "false");
        config.put("quarkus.oidc.staff.public-key", Pem.body(Pem.encodePublic(STAFF.getPublic())));
        config.put("quarkus.oidc.staff.token.issuer", TestTokens.STAFF_ISSUER);
        config.put("exam.auth.candidate.private-key", Pem.encodePrivate(CANDIDATE.getPrivate()));
        config.put("exam.auth.service.private-key", Pem.encodePrivate(service(applicationName()).getPrivate()));
        config.put("exam.paper.signing.private-key", Pem.encodePrivate(PAPER.getPrivate()));
        config.put("exam.paper.signing.public-key", Pem.encodePublic(PAPER.getPublic()));
        config.put("exam.archive.signing.private-key", Pem.encodePrivate(ARCHIVE.getPrivate()));
        config.put("exam.archive.signing.public-key", Pem.encodePublic(ARCHIVE.getPublic()));
        return config;
    }

    /** A service's own key pair; any other name (a test's own) gets the session-service's. */
    static KeyPair service(String name) {
        return SERVICES.getOrDefault(name, SERVICES.get(Roles.SESSION_SERVICE));
    }

    /** The service under test: its {@code quarkus.application.name}, read from its application.properties. */
    private static String applicationName() {
        Properties properties = new Properties();
        try (InputStream in = Thread.currentThread().getContextClassLoader().getResourceAsStream("application.properties")) {
            if (in != null) {
                properties.load(in);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return properties.getProperty("quarkus.application.name", Roles.SESSION_SERVICE);
    }

    @Override
    public void stop() {
    }
}
