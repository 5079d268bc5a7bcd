package org.examsuite.tools.suite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.examsuite.tools.Databases;
import org.examsuite.tools.host.PidFiles;
import org.examsuite.tools.host.Probes;
import org.examsuite.tools.host.Procs;
import org.examsuite.tools.host.Workspace;
import org.examsuite.tools.infra.Infra;
import org.examsuite.tools.infra.SuiteRedis;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ./exam up and down end to end on this machine's PostgreSQL and Redis, with stand-ins for the
 * four services' jars (a real build takes minutes): the processes started, recorded, ready,
 * found again by up and status, and stopped — exactly those — by down.
 */
class SuiteUpDownTest {
    @TempDir
    Path home;

    private Suite suite;
    private Launcher launcher;

    private void workspace() throws Exception {
        Path values = home.resolve("k8s/chart/exam-suite/values.yaml");
        Files.createDirectories(values.getParent());
        Files.copy(JvmFlagsTest.HOME.resolve("k8s/chart/exam-suite/values.yaml"), values);
        Path testClasses = Path.of(FakeService.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        for (Service s : Service.values()) {
            Path jar = Maven.jar(new Workspace(home, Map.of()), s);
            Files.createDirectories(jar.getParent());
            Manifest manifest = new Manifest();
            manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
            manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, FakeService.class.getName());
            manifest.getMainAttributes().put(Attributes.Name.CLASS_PATH, testClasses.toUri().toString());
            try (OutputStream out = Files.newOutputStream(jar); JarOutputStream ignored = new JarOutputStream(out, manifest)) {
                // a manifest is all it holds
            }
        }
        Map<String, String> env = new HashMap<>(System.getenv());
        env.keySet().removeIf(k -> k.startsWith("EXAM_") || k.startsWith("QUARKUS_"));
        env.put("EXAM_DB_NAME", "exam_updown_test");
        env.put("EXAM_TEST_DB_NAME", "exam_updown_test");
        env.put("EXAM_JAVA_OPTS", "-Xmx32m -XX:TieredStopAtLevel=1");
        Workspace ws = new Workspace(home, env);
        Procs procs = new Procs(ws);
        PidFiles pids = new PidFiles(ws);
        Maven maven = new Maven(ws);
        NativeBuilds natives = new NativeBuilds(ws, procs, maven);
        launcher = new Launcher(ws, procs, pids, new JvmFlags(ws, procs), natives, new Keys(ws));
        SuiteRedis redis = new SuiteRedis(ws, procs);
        suite = new Suite(ws, procs, pids, new Infra(ws, procs, pids, redis), redis, launcher, new Builds(ws, maven, natives),
                new HaPostgres(ws, procs, pids, maven), new Keycloak(ws, procs, pids, maven));
    }

    @Test
    void upStartsTheFourAndDownStopsExactlyThem() throws Exception {
        for (Service s : Service.values()) {
            assumeFalse(Probes.tcp("127.0.0.1", s.port()), "a suite runs on this machine's ports (./exam up?)");
        }
        workspace();
        try {
            suite.up(false, false, false);
            assertTrue(suite.allRunning());
            for (Service s : Service.values()) {
                assertEquals(200, Probes.httpStatus("127.0.0.1", s.port(), "/q/health/ready"), s.module());
                assertTrue(Files.isRegularFile(home.resolve(".exam/run/" + s.module() + ".pid")));
            }
            assertTrue(Files.isRegularFile(home.resolve(".exam/keys/paper.private.pem")), "up makes the dev keys");
            suite.up(false, false, false); // again: reports it runs, starts nothing
            suite.status();
        } finally {
            suite.down();
        }
        assertFalse(suite.allRunning());
        for (Service s : Service.values()) {
            assertFalse(Probes.tcp("127.0.0.1", s.port()), s.module() + " still listens");
            assertFalse(Files.exists(home.resolve(".exam/run/" + s.module() + ".pid")));
        }
        new Databases("127.0.0.1", 5432, "postgres", "").drop("exam_updown_test");
    }
}
