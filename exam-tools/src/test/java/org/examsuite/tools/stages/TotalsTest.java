package org.examsuite.tools.stages;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TotalsTest {
    @TempDir
    Path home;

    private void report(String module, String name, String suite, long mtime) throws Exception {
        Path dir = Files.createDirectories(home.resolve(module + "/target/surefire-reports"));
        Path file = dir.resolve("TEST-" + name + ".xml");
        Files.writeString(file, "<?xml version=\"1.0\"?>\n" + suite + "\n<testcase name=\"x\"/></testsuite>\n");
        Files.setLastModifiedTime(file, FileTime.fromMillis(mtime));
    }

    @Test
    void surefireReportsWrittenSinceTheMarkerCount() throws Exception {
        report("a", "One", "<testsuite xmlns:xsi=\"x\" name=\"One\" time=\"1.2\" tests=\"10\" errors=\"1\" skipped=\"2\" failures=\"3\">", 2000_000);
        report("b", "Two", "<testsuite name=\"Two\" tests=\"5\" errors=\"0\" skipped=\"0\" failures=\"0\">", 2000_000);
        report("c", "Old", "<testsuite name=\"Old\" tests=\"7\" errors=\"0\" skipped=\"0\" failures=\"0\">", 500_000);
        Totals totals = Totals.junit(Totals.reports(home, FileTime.fromMillis(1000_000)));
        assertEquals(new Totals(9, 4, 2), totals); // 15 tests: 4 failed (1 error + 3 failures), 2 skipped
        assertEquals("9 passed, 4 failed, 2 skipped", totals.toString());
    }

    @Test
    void failedTestsAreNamedWithTheirMessagesFirstLine() throws Exception {
        Path dir = Files.createDirectories(home.resolve("session-service/target/surefire-reports"));
        Files.writeString(dir.resolve("TEST-org.x.LiveTest.xml"), """
                <?xml version="1.0"?>
                <testsuite name="org.x.LiveTest" tests="4" errors="1" skipped="0" failures="1">
                <testcase name="passes" classname="org.x.LiveTest" time="0.1"/>
                <testcase name="pauses" classname="org.x.LiveTest" time="2.0">
                  <failure message="expected: &lt;200&gt; but was: &lt;503&gt;&#10;second line" type="org.opentest4j.AssertionFailedError">trace</failure>
                </testcase>
                <testcase name="times out" classname="org.x.LiveTest" time="9.0">
                  <error type="java.util.concurrent.TimeoutException"/>
                </testcase>
                <testcase name="also passes" classname="org.x.LiveTest" time="0.1"></testcase>
                <testcase name="flaky" classname="org.x.LiveTest" time="3.0">
                  <flakyFailure message="expected: &lt;true&gt;" type="org.opentest4j.AssertionFailedError"><stackTrace>t</stackTrace></flakyFailure>
                </testcase>
                </testsuite>
                """);
        Files.setLastModifiedTime(dir.resolve("TEST-org.x.LiveTest.xml"), FileTime.fromMillis(2000_000));
        assertEquals(List.of("LiveTest.pauses: expected: <200> but was: <503>", "LiveTest.times out"),
                Totals.failedTests(Totals.reports(home, FileTime.fromMillis(1000_000))));
        assertEquals(List.of("LiveTest.flaky: expected: <true>"), Totals.flakyTests(Totals.reports(home, FileTime.fromMillis(1000_000))));
        assertEquals(List.of(), Totals.failedTests(Totals.reports(home, FileTime.fromMillis(3000_000))));
    }

    @Test
    void nodeSummariesOfBothReportersCount() throws Exception {
        Path client = home.resolve("test-client.log");
        Files.writeString(client, "ok 1 - a\nℹ tests 14\nℹ pass 12\nℹ fail 1\nℹ skipped 1\nℹ todo 0\n");
        Path e2e = home.resolve("test-e2e.log");
        Files.writeString(e2e, "# tests 3\n# pass 2\n# fail 0\n# todo 1\n");
        Totals totals = Totals.node(List.of(client, e2e, home.resolve("missing.log")), FileTime.fromMillis(0));
        assertEquals(new Totals(14, 1, 2), totals);
    }

    @Test
    void totalsAdd() {
        assertEquals(new Totals(3, 3, 3), new Totals(1, 2, 3).plus(new Totals(2, 1, 0)));
    }
}
