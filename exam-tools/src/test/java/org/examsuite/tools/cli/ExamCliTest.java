package org.examsuite.tools.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

/** The command line itself: help everywhere, exit codes that mean something, nothing started to say so. */
class ExamCliTest {
    record Run(int exitCode, String out, String err) {
    }

    static Run run(String... args) {
        CommandLine cli = Exam.commandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        int rc = cli.execute(args);
        return new Run(rc, out.toString(), err.toString());
    }

    @ParameterizedTest
    @ValueSource(strings = {"up", "down", "status", "token", "test", "demo", "fuzz", "drill", "bench", "build", "native",
        "cluster", "capacity", "images", "completion"})
    void everyCommandHasHelp(String command) {
        Run run = run(command, "--help");
        assertEquals(0, run.exitCode(), run.err());
        assertTrue(run.out().startsWith("Usage: ./exam " + command), run.out());
    }

    @Test
    void theOverviewNamesEveryCommandButTheHiddenOne() {
        Run run = run("--help");
        assertEquals(0, run.exitCode());
        for (String command : List.of("up", "down", "status", "token", "test", "demo", "fuzz", "drill", "bench", "build",
                "native", "cluster", "capacity", "images", "completion")) {
            assertTrue(run.out().contains("\n  " + command + " "), command + " missing from:\n" + run.out());
        }
        assertTrue(!run.out().contains("_stage"), "the stage process is an implementation detail");
    }

    @Test
    void demoHelpListsItsOptions() {
        String help = run("demo", "--help").out();
        for (String option : List.of("--candidates", "--duration", "--network", "--seed", "--keep-running", "--native")) {
            assertTrue(help.contains(option), option);
        }
    }

    @Test
    void testHelpListsTheStagesWithTheirLimits() {
        String help = run("test", "--help").out();
        assertTrue(help.contains("maven    Maven verify"), help);
        assertTrue(help.contains("images   (only when named)"), help);
        assertTrue(help.contains("(540 s)"), help);
    }

    @Test
    void anUnknownStageIsAnErrorNamingTheStages() {
        Run run = run("test", "clinet");
        assertEquals(2, run.exitCode());
        assertTrue(run.err().contains("no test stage 'clinet'"), run.err());
        assertTrue(run.err().contains("maven, cluster, native, client, live, e2e, fuzz, demo, drill, images"), run.err());
    }

    @Test
    void anUnknownOptionIsAUsageError() {
        Run run = run("demo", "--candidatez", "5");
        assertEquals(2, run.exitCode());
        assertTrue(run.err().contains("--candidatez"), run.err());
    }

    @Test
    void anUnknownCommandIsAUsageError() {
        assertEquals(2, run("nosuchcommand").exitCode());
    }

    @Test
    void aMistypedNumberIsAUsageError() {
        Run run = run("drill", "--candidates", "many");
        assertEquals(2, run.exitCode());
        assertTrue(run.err().contains("many"), run.err());
    }

    @Test
    void aDrillRunsNativeOrOnTheJvmNotBoth() {
        Run run = run("drill", "--native", "--jvm");
        assertEquals(2, run.exitCode());
        assertTrue(run.err().contains("--native or --jvm"), run.err());
        assertTrue(run("drill", "--help").out().contains("--jvm"));
    }

    @Test
    void anUnknownServiceIsAUsageError() {
        Run run = run("build", "gradebook-service");
        assertEquals(2, run.exitCode());
        assertTrue(run.err().contains("unknown service: gradebook-service"), run.err());
    }

    @Test
    void tokenPrintsTheTokenAloneAndMakesMissingKeys(@org.junit.jupiter.api.io.TempDir java.nio.file.Path home) {
        String before = System.getProperty("exam.home");
        System.setProperty("exam.home", home.toString());
        java.io.PrintStream original = System.out;
        java.io.ByteArrayOutputStream buffer = new java.io.ByteArrayOutputStream();
        System.setOut(new java.io.PrintStream(buffer, true, java.nio.charset.StandardCharsets.UTF_8));
        try {
            assertEquals(0, run("token", "operator", "alice@school").exitCode());
        } finally {
            System.setOut(original);
            if (before == null) {
                System.clearProperty("exam.home");
            } else {
                System.setProperty("exam.home", before);
            }
        }
        String[] lines = buffer.toString(java.nio.charset.StandardCharsets.UTF_8).strip().split("\n");
        assertEquals(1, lines.length);
        String claims = new String(java.util.Base64.getUrlDecoder().decode(lines[0].split("\\.")[1]), java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(claims.contains("\"sub\":\"alice@school\""), claims);
        assertTrue(java.nio.file.Files.isRegularFile(home.resolve(".exam/keys/operator.private.pem")));
    }

    @Test
    void aTokenOfAnotherKindIsAUsageError() {
        assertEquals(2, run("token", "candidate").exitCode());
    }

    @Test
    void aServiceTokenNamesOneOfTheFourServices() {
        Run unnamed = run("token", "service");
        assertEquals(2, unnamed.exitCode());
        assertTrue(unnamed.err().contains("session-service, answer-service, submission-service, grading-saga"),
                unnamed.err());
        assertEquals(2, run("token", "service", "exam-tools").exitCode());
    }

    @Test
    void staffTokensAreChosenByOrganisationAndExamNotBySubject() {
        Run named = run("token", "proctor", "priya");
        assertEquals(2, named.exitCode());
        assertTrue(named.err().contains("--org and --exam choose it"), named.err());
        Run scoped = run("token", "operator", "--exam", "e1");
        assertEquals(2, scoped.exitCode());
        assertTrue(scoped.err().contains("for the staff roles' tokens"), scoped.err());
        assertTrue(run("token", "--help").out().contains("--org"));
    }

    @Test
    void completionIsABashScript() {
        Run run = run("completion");
        assertEquals(0, run.exitCode());
        assertTrue(run.out().contains("complete -F"), run.out());
    }
}
