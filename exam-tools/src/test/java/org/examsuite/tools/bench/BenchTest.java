package org.examsuite.tools.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import org.examsuite.tools.host.Fail;
import org.examsuite.tools.host.Procs;
import org.examsuite.tools.host.Say;
import org.examsuite.tools.host.Workspace;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bench.run end to end in a throw-away workspace: fake benchmarks that write a results table and
 * the ready file and run a "service" process for a moment, and what lands in docs/benchmarks.md.
 */
class BenchTest {
    private static final Instant NOW = Instant.parse("2026-12-06T08:00:30Z");

    @TempDir
    Path home;
    private Workspace ws;
    private final FakeServices services = new FakeServices();
    private final List<String> envLog = new ArrayList<>();

    /**
     * A stand-in autosave: records the environment it got, runs a process whose command line names
     * answer-service's jar for the sampler to find, writes the ready file as bench_ready does and a
     * results table whose figures say which flavour ran.
     */
    private final Benchmark autosave = r -> {
        envLog.add("BENCH_COMMAND_ANSWER=" + r.envOrUnset("BENCH_COMMAND_ANSWER", "unset") + " BENCH_COMMAND_SESSION="
                + r.envOrUnset("BENCH_COMMAND_SESSION", "unset") + " JAVA_OPTS=" + r.env("JAVA_OPTS") + " JAVA_OPTS_ANSWER="
                + r.env("JAVA_OPTS_ANSWER"));
        ServiceProcess service = r.start("answer-service",
                List.of("bash", "-c", "sleep 1.5; true", "answer-service/target/quarkus-app/quarkus-run.jar"), Map.of(), "service.log");
        while (service.alive()) {
            BenchRun.sleep(50);
        }
        boolean nativeRun = r.nativeFlavour("answer-service");
        String ready = nativeRun ? "150 80896|200 81920|250 82944" : "3800 174080|3900 175104|4000 176128";
        StringBuilder lines = new StringBuilder();
        for (String start : ready.split("\\|")) {
            lines.append("answer-service ").append(start).append('\n');
        }
        Files.writeString(Path.of(r.env("BENCH_READY_FILE")), lines, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        r.report("# Autosave benchmark", "", "| connections | endpoint | req/s | p50 | p99 |", "|---|---|---|---|---|",
                "| 50 | autosave | " + (nativeRun ? "2000" : "4000") + " | 1ms | " + (nativeRun ? "90.5ms" : "30.25ms") + " |",
                "| 50 | ceiling | 9000 | 1ms | 2ms |");
    };

    private final Benchmark broken = r -> {
        Say.say("broken on purpose");
        throw new Fail("broken on purpose", 3);
    };

    @BeforeEach
    void workspace() throws IOException {
        Map<String, String> env = new HashMap<>(System.getenv());
        env.keySet().removeIf(k -> k.startsWith("JAVA_OPTS") || k.startsWith("BENCH_") || k.equals("READY_SERVICES"));
        env.put("BENCH_COMMAND_ANSWER", "the user's own"); // the JVM runs must not see it
        ws = new Workspace(home, env);
        Files.createDirectories(home.resolve("docs"));
        Files.writeString(home.resolve("docs/benchmarks.md"), "# Benchmarks\n");
    }

    private Bench bench() {
        Map<String, Benchmark> all = Map.of("autosave", autosave, "broken", broken);
        return new Bench(ws, new Procs(ws), services, Clock.fixed(NOW, ZoneOffset.UTC), Duration.ofMillis(100), Path.of("/proc"),
                name -> Optional.ofNullable(all.get(name)));
    }

    private String appended() throws IOException {
        String doc = Files.readString(home.resolve("docs/benchmarks.md"));
        assertTrue(doc.startsWith("# Benchmarks\n"), "what was there stays");
        return doc.substring("# Benchmarks\n".length());
    }

    private List<String> envLog() {
        return envLog;
    }

    private static void assertMatches(String regex, String text) {
        assertTrue(Pattern.compile(regex, Pattern.DOTALL).matcher(text).matches(), () -> "expected\n" + regex + "\n\ngot\n" + text);
    }

    @Test
    void aJvmRunAppendsEachBenchsTableWithPeakRssAndReadyTimesAndAFailureAsSuch() throws IOException {
        int rc = bench().run(new Bench.Options(List.of("autosave", "broken"), false, false, null));

        assertEquals(1, rc, "a bench failed");
        String out = appended();
        List<String> lines = out.lines().toList();
        assertEquals("", lines.get(0));
        assertEquals("## Run of 2026-12-06T08:00Z (./exam bench autosave broken)", lines.get(1));
        assertEquals("", lines.get(2));
        assertMatches("Machine: \\d+ cores \\(.*\\), \\d+ GiB,", lines.get(3));
        assertMatches(".+, load generator on the same machine, commit unknown\\.", lines.get(4));
        String rest = String.join("\n", lines.subList(5, lines.size())) + "\n";
        assertMatches(Pattern.quote("""

                ### autosave

                # Autosave benchmark

                | connections | endpoint | req/s | p50 | p99 |
                |---|---|---|---|---|
                | 50 | autosave | 4000 | 1ms | 30.25ms |
                | 50 | ceiling | 9000 | 1ms | 2ms |

                Peak RSS (VmHWM) of each service during this benchmark (flags of ./exam up: submission-service \
                -Xjvm-submission-service; answer-service -Xjvm-answer-service; session-service and grading-saga \
                -Xjvm-session-service): answer-service\s""") + "\\d+" + Pattern.quote("""
                 MiB; answer-service ready 3800 ms after its start, idle RSS 170 MiB; answer-service ready 3900 ms \
                after its start, idle RSS 171 MiB; answer-service ready 4000 ms after its start, idle RSS 172 MiB.

                ### broken

                FAILED (see the output of ./exam bench broken)
                """), rest);
        assertEquals(List.of("BENCH_COMMAND_ANSWER=unset BENCH_COMMAND_SESSION=unset JAVA_OPTS=-Xjvm-answer-service"
                + " JAVA_OPTS_ANSWER=-Xjvm-answer-service"), envLog());
        assertEquals(List.of(), services.built, "a JVM run builds no native executable");
    }

    @Test
    void aCompareRunBuildsWhatIsMissingInterleavesTheFlavoursAndAppendsOneTable() throws IOException {
        int rc = bench().run(Bench.Options.parse(List.of("--compare", "--rounds", "1", "autosave")));

        assertEquals(0, rc);
        assertEquals(List.of(List.of("answer-service")), services.built);
        assertEquals(List.of(
                "BENCH_COMMAND_ANSWER=unset BENCH_COMMAND_SESSION=unset JAVA_OPTS=-Xjvm-answer-service JAVA_OPTS_ANSWER=-Xjvm-answer-service",
                "BENCH_COMMAND_ANSWER=" + home + "/answer-service/target/native/answer-service -Xnative-answer-service"
                        + " -Dexam.service=answer-service BENCH_COMMAND_SESSION=" + home + "/session-service/target/native/session-service"
                        + " -Xnative-session-service -Dexam.service=session-service"
                        + " JAVA_OPTS=(native executable) -Xnative-answer-service JAVA_OPTS_ANSWER=(native executable) -Xnative-answer-service"),
                envLog());
        String out = appended();
        List<String> lines = out.lines().toList();
        assertEquals("## Native against JVM: Run of 2026-12-06T08:00Z (./exam bench --compare --rounds 1 autosave)", lines.get(1));
        assertMatches("answer-service native: 2 MB, built \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\dZ, run as "
                + Pattern.quote("`answer-service/target/native/answer-service -Xnative-answer-service -Dexam.service=answer-service`."),
                lines.get(5));
        assertEquals("**answer-service's native executable is older than its sources.**", lines.get(6));
        String rest = String.join("\n", lines.subList(7, lines.size())) + "\n";
        assertMatches(Pattern.quote("""

                Each bench ran 1× JVM then native, interleaved; values in run order (from 3 on: median (min–max)). \
                Time to ready: from the process's start to /q/health/ready 200; idle RSS: 5 s after ready, before any \
                load; peak RSS: VmHWM over the run. Targets: ready ≤ 300 ms and idle RSS ≤ 100 MiB per service; 10,000 \
                live sockets on one session-service within 300 MiB.

                | bench | measure | JVM | native | native ÷ JVM (medians) |
                |---|---|---|---|---|
                | autosave | req/s, 50 connections | 4000 | 2000 | 0.50 |
                | autosave | p99 (ms), 50 connections | 30.2 | 90.5 | 2.99 |
                | autosave | answer-service: time to ready (ms) | 3900 (3800–4000) | 200 (150–250) | 0.05 |
                | autosave | answer-service: idle RSS (MiB) | 171 (170–172) | 80 (79–81) | 0.47 |
                | autosave | answer-service: peak RSS (MiB) |\s""") + "[0-9.]+ \\| [0-9.]+ \\| [0-9.]+" + Pattern.quote("""
                 |

                The runs' own tables: autosave jvm: bench/autosave/results/""") + "\\d{8}T\\d+Z\\.md"
                + Pattern.quote("; autosave native: bench/autosave/results/") + "\\d{8}T\\d+Z\\.md\\.\n", rest);
    }

    @Test
    void withoutJavaOnThePathNothingRunsAndNothingIsAppended() throws IOException {
        ws.put("PATH", Files.createDirectories(home.resolve("empty-path")).toString());
        Fail fail = assertThrows(Fail.class,
                () -> bench().run(new Bench.Options(List.of("autosave"), false, false, null)));
        assertEquals(1, fail.exitCode());
        assertTrue(fail.getMessage().contains("java not found on PATH"));
        assertEquals("", appended());
        assertEquals(List.of(), envLog);
    }

    /** The service launcher as the bench sees it: flags named after the service, executables under the workspace. */
    private final class FakeServices implements BenchServices {
        final List<List<String>> built = new ArrayList<>();

        @Override
        public List<String> all() {
            return List.of("session-service", "answer-service", "submission-service", "grading-saga");
        }

        @Override
        public String jvmOpts(String service) {
            return "-Xjvm-" + service;
        }

        @Override
        public String nativeOpts(String service) {
            return "-Xnative-" + service;
        }

        @Override
        public String nativeCommand(String service) {
            return nativeExecutable(service) + " " + nativeOpts(service) + " -Dexam.service=" + service;
        }

        @Override
        public Path nativeExecutable(String service) {
            return home.resolve(service + "/target/native/" + service);
        }

        @Override
        public void buildNative(List<String> services) {
            built.add(services);
            for (String service : services) {
                try {
                    Path exe = Files.createDirectories(nativeExecutable(service).getParent()).resolve(service);
                    Files.write(exe, new byte[2 << 20]);
                    Files.setPosixFilePermissions(exe, PosixFilePermissions.fromString("rwxr-xr-x"));
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }
        }

        @Override
        public boolean sourcesNewer(Path target, String module) {
            return target.toString().contains("/target/native/");
        }
    }
}
