package org.examsuite.tools.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.examsuite.tools.host.Fail;
import org.examsuite.tools.host.Procs;
import org.examsuite.tools.host.Workspace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A bench run's knobs as the scripts read them (${X:-default}, ${X-default}), its start commands and its files. */
class BenchRunTest {
    @TempDir
    Path home;

    private BenchRun run(Map<String, String> env) {
        Map<String, String> all = new HashMap<>(env);
        all.put("TMPDIR", home.toString());
        Workspace ws = new Workspace(home, all);
        return new BenchRun("autosave", home, all, new Procs(ws), new FlagsOnly(), new ProcFs(),
                Clock.fixed(Instant.parse("2026-12-06T08:00:30Z"), ZoneOffset.UTC));
    }

    @Test
    void knobsTakeTheirDefaultWhenUnsetOrEmptyAndSayWhatIsWrong() {
        try (BenchRun r = run(Map.of("SESSIONS", "", "DURATION", "5", "CONNECTIONS", "50 200", "WINDOW", "ten"))) {
            assertEquals(5000, r.envInt("SESSIONS", 5000));
            assertEquals(5, r.envInt("DURATION", 30));
            assertEquals(List.of(50, 200), r.envInts("CONNECTIONS", "50 200 1000"));
            assertEquals(List.of(50, 200, 1000), r.envInts("NOT_SET", "50 200 1000"));
            Fail bad = assertThrows(Fail.class, () -> r.envInt("WINDOW", 10));
            assertEquals(2, bad.exitCode());
            assertTrue(bad.getMessage().contains("WINDOW"));
        }
    }

    @Test
    void javaOptsSetToEmptyStaysEmptyLikeTheScriptsDashWithoutColon() {
        try (BenchRun r = run(Map.of("JAVA_OPTS", ""))) {
            assertEquals("", r.envOrUnset("JAVA_OPTS", "-Xchart"));
            assertEquals("-Xchart", r.envOrUnset("JAVA_OPTS_SESSION", "-Xchart"));
            assertEquals("-Xchart", r.env("JAVA_OPTS", "-Xchart"));
        }
    }

    @Test
    void theJvmCommandHasTheFlagsThePropertiesTheServiceAndTheJar() {
        try (BenchRun r = run(Map.of("JAVA_OPTS_GRADING", "-Xmx1g -Xss256k"))) {
            String flags = r.jvmFlags("grading-saga", "JAVA_OPTS_GRADING", "JAVA_OPTS");
            assertEquals(List.of("java", "-Xmx1g", "-Xss256k", "-Da=b", "-Dexam.service=grading-saga", "-jar", "/apps/gs.jar"),
                    r.command("grading-saga", flags, Path.of("/apps/gs.jar"), "-Da=b"));
            assertEquals("-Xchart-answer-service", r.jvmFlags("answer-service", "JAVA_OPTS_ANSWER", "JAVA_OPTS"));
            assertFalse(r.nativeFlavour("grading-saga"));
        }
    }

    @Test
    void benchCommandReplacesTheJvmForTheNativeExecutable() {
        try (BenchRun r = run(Map.of("BENCH_COMMAND_SESSION", "/x/session-service -Xmx112m -Dexam.service=session-service"))) {
            assertTrue(r.nativeFlavour("session-service"));
            assertEquals(List.of("/x/session-service", "-Xmx112m", "-Dexam.service=session-service", "-Dk=v"),
                    r.command("session-service", "-Xignored", Path.of("/apps/s.jar"), "-Dk=v"));
        }
    }

    @Test
    void jarAndAppsChooseOtherBuilds() {
        try (BenchRun r = run(Map.of("APPS", "/copies"))) {
            assertEquals(Path.of("/copies/answer-service/target/quarkus-app/quarkus-run.jar"), r.jar("answer-service"));
        }
        try (BenchRun r = run(Map.of("JAR", "/old/quarkus-run.jar"))) {
            assertEquals(Path.of("/old/quarkus-run.jar"), r.jar("answer-service"));
            assertEquals(home.resolve("answer-service/target/quarkus-app/quarkus-run.jar"), r.app("answer-service"));
        }
    }

    @Test
    void theReportIsResultsStampMdAndTheScratchDirectoryGoesAtTheEnd() {
        Path work;
        try (BenchRun r = run(Map.of())) {
            work = r.work();
            assertTrue(Files.isDirectory(work));
            assertEquals(home.resolve("bench/autosave/results/20261206T080030Z.md"), r.out());
            r.report("# Autosave benchmark", "");
            r.report(List.of("| a |"));
            assertEquals("# Autosave benchmark\n\n| a |\n", r.read(r.out()));
        }
        assertFalse(Files.exists(work));
    }

    @Test
    void keysAreWrittenAsTheServicesAndDriversTakeThem() {
        try (BenchRun r = run(Map.of())) {
            KeyFiles keys = r.keys();
            keys.rsa("service");
            keys.ed25519("paper");
            assertTrue(keys.privatePem("service").startsWith("-----BEGIN PRIVATE KEY-----\n"));
            assertFalse(keys.privatePem("service").endsWith("\n"), "as $(cat) gave it");
            assertFalse(keys.publicLine("service").contains("-----"));
            assertFalse(keys.publicLine("service").contains("\n"));
            assertTrue(keys.publicPem("paper").startsWith("-----BEGIN PUBLIC KEY-----"));
        }
    }

    /** The chart's flags as the launcher gives them: named after the service. */
    private static final class FlagsOnly implements BenchServices {
        @Override
        public List<String> all() {
            return List.of("session-service", "answer-service", "submission-service", "grading-saga");
        }

        @Override
        public String jvmOpts(String service) {
            return "-Xchart-" + service;
        }

        @Override
        public String nativeOpts(String service) {
            return "";
        }

        @Override
        public String nativeCommand(String service) {
            return "";
        }

        @Override
        public Path nativeExecutable(String service) {
            return Path.of("/none");
        }

        @Override
        public void buildNative(List<String> services) {
        }

        @Override
        public boolean sourcesNewer(Path target, String module) {
            return false;
        }
    }
}
