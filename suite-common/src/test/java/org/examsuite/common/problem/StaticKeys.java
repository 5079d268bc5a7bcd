package org.examsuite.common.problem;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.Map;
import org.examsuite.common.auth.Pem;

/** Public keys for the three tenants, made per run (suite-testing's TestKeys depends on this module). */
public class StaticKeys implements QuarkusTestResourceLifecycleManager {
    @Override
    public Map<String, String> start() {
        return Map.of(
                "exam.auth.keys.candidate", Pem.body(Pem.encodePublic(Pem.generateRsa().getPublic())),
                "quarkus.oidc.operator.public-key", Pem.body(Pem.encodePublic(Pem.generateRsa().getPublic())),
                "exam.auth.keys.callers.session-service", Pem.body(Pem.encodePublic(Pem.generateRsa().getPublic())));
    }

    @Override
    public void stop() {
    }
}
