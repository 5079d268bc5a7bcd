package org.examsuite.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The embedded daemon's command line: nothing to start, or half a specification, is a usage error. */
class ExamToolsTest {
    private static int run(String... args) {
        CommandLine cli = new CommandLine(ExamTools.class);
        cli.setErr(new java.io.PrintWriter(new java.io.StringWriter()));
        return cli.execute(args);
    }

    @Test
    void usageErrors() {
        assertEquals(2, run("launch"));
        assertEquals(2, run("infra"));
        assertEquals(2, run("infra", "--pg-port", "25432"));
        assertEquals(2, run("infra", "--redis-port", "26379"));
    }
}
