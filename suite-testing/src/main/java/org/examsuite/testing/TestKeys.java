package org.examsuite.testing;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.security.KeyPair;
import java.util.HashMap;
import java.util.Map;
import org.examsuite.common.auth.Pem;

/**
 * Fresh key pairs for one test JVM (nothing is committed), handed to the service under
 * test as configuration: {@code @QuarkusTestResource(TestKeys.class)}. {@link TestTokens}
 * signs with the same pairs.
 */
public class TestKeys implements QuarkusTestResourceLifecycleManager {
    static final KeyPair CANDIDATE = Pem.generateRsa();
    static final KeyPair OPERATOR = Pem.generateRsa();
    static final KeyPair SERVICE = Pem.generateRsa();
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
        config.put("quarkus.oidc.candidate.public-key", Pem.body(Pem.encodePublic(CANDIDATE.getPublic())));
        config.put("quarkus.oidc.operator.public-key", Pem.body(Pem.encodePublic(OPERATOR.getPublic())));
        config.put("quarkus.oidc.service.public-key", Pem.body(Pem.encodePublic(SERVICE.getPublic())));
        config.put("quarkus.oidc.staff.tenant-enabled", "true");
        config.put("quarkus.oidc.staff.discovery-enabled", "false");
        config.put("quarkus.oidc.staff.public-key", Pem.body(Pem.encodePublic(STAFF.getPublic())));
        config.put("quarkus.oidc.staff.token.issuer", TestTokens.STAFF_ISSUER);
        config.put("exam.auth.candidate.private-key", Pem.encodePrivate(CANDIDATE.getPrivate()));
        config.put("exam.auth.service.private-key", Pem.encodePrivate(SERVICE.getPrivate()));
        config.put("exam.paper.signing.private-key", Pem.encodePrivate(PAPER.getPrivate()));
        config.put("exam.paper.signing.public-key", Pem.encodePublic(PAPER.getPublic()));
        config.put("exam.archive.signing.private-key", Pem.encodePrivate(ARCHIVE.getPrivate()));
        config.put("exam.archive.signing.public-key", Pem.encodePublic(ARCHIVE.getPublic()));
        return config;
    }

    @Override
    public void stop() {
    }
}
