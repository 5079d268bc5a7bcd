package org.examsuite.tools.stages;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.ToIntFunction;
import org.examsuite.tools.host.Fail;
import org.examsuite.tools.host.PidFiles;
import org.examsuite.tools.host.Procs;
import org.examsuite.tools.host.Say;
import org.examsuite.tools.host.Workspace;
import org.examsuite.tools.infra.Infra;
import org.examsuite.tools.infra.RedisUrl;
import org.examsuite.tools.suite.NativeBuilds;

/**
 * ./exam test [STAGE...]: the stages in order, each in its own process under its time limit (a
 * stage's failure ends only that stage), then one summary whose closing line counts every test of
 * every stage — "tests: N passed, N failed, N skipped" — which CI reads.
 */
public final class TestRun {
    private final Workspace ws;
    private final Procs procs;
    private final PidFiles pids;
    private final Infra infra;
    private final ToIntFunction<Stage> stageProcess;

    /** STAGE_PROCESS runs one stage in a process of its own and returns its exit code. */
    public TestRun(Workspace ws, Procs procs, PidFiles pids, Infra infra, ToIntFunction<Stage> stageProcess) {
        this.ws = ws;
        this.procs = procs;
        this.pids = pids;
        this.infra = infra;
        this.stageProcess = stageProcess;
    }

    /** The stages NAMES select; a name that is no stage is a usage error naming the stages. */
    public static List<Stage> select(List<String> names) {
        for (String name : names) {
            if (Stage.of(name).isEmpty()) {
                throw Fail.usage("no test stage '" + name + "'; the stages: " + String.join(", ", Stage.ids()));
            }
        }
        return Stage.selected(names);
    }

    public int run(List<String> names) {
        List<Stage> stages = select(names);
        Path marker = ws.runDir().resolve("test-started");
        FileTime since = touch(marker);
        long started = System.nanoTime();
        Thread cleanup = new Thread(this::cleanup);
        Runtime.getRuntime().addShutdownHook(cleanup);
        ws.put("EXAM_TEST_SHARED_SUITE", "1");
        StageSuite.sharedDown(ws, pids); // a run that was killed may have left its suite
        RedisUrl redis = RedisUrl.first(ws.env("EXAM_REDIS_URL"));
        // the tests use Redis logical database 1 of the configured Redis (the %test profile)
        ws.put("EXAM_TEST_REDIS_URL", ws.env("EXAM_TEST_REDIS_URL", "redis://" + redis.host() + ":" + redis.port() + "/1"));

        Say.say("== PostgreSQL, Redis and the test database");
        infra.ensure();

        List<String> results = new ArrayList<>();
        int passed = 0;
        int failed = 0;
        for (Stage stage : stages) {
            if (!stage.sharesSuite()) {
                StageSuite.sharedDown(ws, pids);
            }
            Say.say("");
            Say.say("== " + stage.title());
            long begin = System.nanoTime();
            int rc = stageProcess.applyAsInt(stage);
            long took = (System.nanoTime() - begin) / 1_000_000_000L;
            if (rc == 0) {
                results.add("PASS  " + stage.title() + " (" + took + " s)");
                passed++;
                // the stages after it run the suite from the native executables (EXAM_TEST_NATIVE=0: the JVM)
                if (stage == Stage.NATIVE && !"0".equals(ws.env("EXAM_TEST_NATIVE"))) {
                    ws.put("EXAM_NATIVE", "1");
                    // as the native stage left them: a service its budget left out runs on the JVM, unbuilt
                    if (ws.env("EXAM_NATIVE_BUILD").isEmpty()) {
                        ws.put("EXAM_NATIVE_BUILD", NativeBuilds.AS_BUILT);
                    }
                }
            } else if (rc == Stage.NOT_APPLICABLE) {
                results.add("n/a   " + stage.title() + " (not in the tree yet)");
            } else if (rc == Procs.TIMED_OUT) {
                results.add("FAIL  " + stage.title() + " (timed out after " + stage.limitSeconds() + " s)");
                failed++;
            } else {
                results.add("FAIL  " + stage.title() + " (" + took + " s, exit " + rc + ")");
                failed++;
            }
        }

        long total = (System.nanoTime() - started) / 1_000_000_000L;
        Say.say("");
        Say.say("== ./exam test summary (" + total / 60 + " min " + total % 60 + " s)");
        results.forEach(r -> Say.say("  " + r));
        List<String> reports = Totals.reports(ws.home(), since);
        Totals junit = Totals.junit(reports);
        Totals node = Totals.node(List.of(ws.logDir().resolve("test-client.log"), ws.logDir().resolve("test-e2e.log")), since);
        Say.say("  JUnit (all modules): " + junit);
        List<String> failedTests = Totals.failedTests(reports);
        failedTests.stream().limit(20).forEach(t -> Say.say("    failed: " + t));
        if (failedTests.size() > 20) {
            Say.say("    ... and " + (failedTests.size() - 20) + " more (target/surefire-reports)");
        }
        Totals.flakyTests(reports).forEach(t -> Say.say("    passed when run again: " + t));
        Say.say("  node --test (exam-client): " + node);
        Say.say("  stages passed: " + passed + " of " + (passed + failed));
        // a stage that failed outside any test (a build step, a missing tool) counts as one failure more
        Totals all = junit.plus(node).plus(new Totals(0, failed, 0));
        Say.say("tests: " + all);
        return failed == 0 ? 0 : 1;
    }

    private void cleanup() {
        StageSuite.sharedDown(ws, pids);
        if (infra.startedEmbedded()) {
            Say.say("stopping the embedded PostgreSQL/Redis this run started");
            infra.stopEmbedded();
        }
    }

    private static FileTime touch(Path marker) {
        try {
            Files.writeString(marker, "");
            return Files.getLastModifiedTime(marker);
        } catch (IOException e) {
            throw new Fail("cannot write " + marker + ": " + e.getMessage());
        }
    }

    /** The process of one stage: this program again ({@code _stage NAME}) under the stage's time limit. */
    public static ToIntFunction<Stage> subprocess(Workspace ws, Procs procs) {
        return stage -> {
            List<String> command = List.of(javaBin(), "-Xmx256m", "-cp", System.getProperty("java.class.path"),
                    "-Dexam.home=" + ws.home(), "org.examsuite.tools.cli.Exam", "_stage", stage.id());
            return procs.runLimited(command, Map.of(), stage.limitSeconds());
        };
    }

    static String javaBin() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }
}
