package org.examsuite.tools.infra;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.examsuite.tools.Databases;
import org.examsuite.tools.host.PidFiles;
import org.examsuite.tools.host.Probes;
import org.examsuite.tools.host.Procs;
import org.examsuite.tools.host.Workspace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ./exam up's infrastructure step on this machine's PostgreSQL and Redis, and — where nothing
 * answers — on embedded ones it starts and stops again (what a JDK-only machine gets).
 */
class InfraTest {
    @TempDir
    Path home;

    private Infra infra(Map<String, String> extra) {
        Map<String, String> env = new HashMap<>(System.getenv());
        env.keySet().removeIf(k -> k.startsWith("EXAM_") || k.startsWith("QUARKUS_REDIS"));
        env.putAll(extra);
        Workspace ws = new Workspace(home, env);
        Procs procs = new Procs(ws);
        return new Infra(ws, procs, new PidFiles(ws), new SuiteRedis(ws, procs));
    }

    @Test
    void theMachinesServicesAreUsedAsTheyAre() throws Exception {
        Infra infra = infra(Map.of("EXAM_DB_NAME", "exam_infra_test", "EXAM_TEST_DB_NAME", "exam_infra_test2"));
        infra.ensure();
        assertFalse(infra.startedEmbedded());
        Databases databases = new Databases("127.0.0.1", 5432, "postgres", "");
        assertTrue(databases.exists("exam_infra_test"));
        databases.drop("exam_infra_test");
        databases.drop("exam_infra_test2");
    }

    @Test
    void embeddedOnesStartWhereNothingAnswersAndStopAgain() {
        int pg = Probes.freePort(25432);
        int redis = Probes.freePort(26379);
        Infra infra = infra(Map.of("EXAM_DB_PORT", Integer.toString(pg), "EXAM_REDIS_URL", "redis://127.0.0.1:" + redis));
        try {
            infra.ensure();
            assertTrue(infra.startedEmbedded());
            assertTrue(Probes.tcp("127.0.0.1", pg));
            assertTrue(Probes.redis("127.0.0.1", redis));
            assertTrue(infra.embeddedRunning().isPresent());
        } finally {
            infra.stopEmbedded();
        }
        assertFalse(infra.embeddedRunning().isPresent());
        assertFalse(Probes.redis("127.0.0.1", redis));
    }
}
