package org.examsuite.tools.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.examsuite.tools.stages.Stage;
import org.examsuite.tools.stages.TestRun;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** ./exam test: every test of the suite (what .ci/run runs), or the named stages. */
@Command(name = "test", mixinStandardHelpOptions = true,
        description = {"Every test (what .ci/run runs), or only the named stages, in this order. Each stage runs in a process of "
            + "its own under its time limit; the closing line counts every test: tests: N passed, N failed, N skipped.",
            "EXAM_MAVEN_ARGS adds Maven arguments to maven and cluster; EXAM_TEST_NATIVE=0 keeps the later stages on the JVM."},
        footerHeading = "%nStages:%n")
final class TestCommand implements Callable<Integer> {
    @Parameters(paramLabel = "STAGE", arity = "0..*", description = "stages to run (all but the optional ones)")
    List<String> stages = new ArrayList<>();

    /** The stages as ./exam test runs them, for the help's footer. */
    static String[] stageList() {
        return java.util.Arrays.stream(Stage.values()).map(s -> String.format("  %-8s %s%s (%d s)", s.id(),
                s.optional() ? "(only when named) " : "", s.title(), s.limitSeconds()).replace("%", "%%")).toArray(String[]::new);
    }

    @Override
    public Integer call() {
        TestRun.select(stages); // a stage that does not exist is an error before anything starts
        Toolbox tb = Exam.toolbox();
        return new TestRun(tb.ws, tb.procs, tb.pids, tb.infra, TestRun.subprocess(tb.ws, tb.procs)).run(stages);
    }

    /** One stage in this process: what ./exam test runs under the stage's time limit. */
    @Command(name = "_stage", hidden = true)
    static final class StageProcess implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "STAGE")
        String stage;

        @Override
        public Integer call() {
            Stage chosen = TestRun.select(List.of(stage)).get(0);
            return Exam.toolbox().stages().run(chosen);
        }
    }
}
