package org.examsuite.tools.host;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * "Is it ours" (the recorded pid runs with the service's marker in its command line) and "did the one just started
 * exit" are two questions: a process seconds old may not show its command line yet (the JDK's spawn helper, or an
 * empty one mid-exec), which made `./exam up` report a live service as "exited during start-up".
 */
class PidFilesTest {
    @Test
    void aLiveProcessWithoutTheMarkerIsNotOursButHasNotExited(@TempDir Path home) throws Exception {
        PidFiles pids = new PidFiles(new Workspace(home, Map.of()));
        Process sleeper = new ProcessBuilder("sleep", "30").start();
        try {
            pids.record("grading-saga", sleeper.pid());
            assertTrue(pids.running("grading-saga", "-Dexam.service=grading-saga").isEmpty(), "not its command line");
            assertTrue(pids.startedAndAlive("grading-saga"), "but alive: not 'exited during start-up'");
        } finally {
            sleeper.destroy();
            sleeper.waitFor();
        }
        assertFalse(pids.startedAndAlive("grading-saga"), "exited");
        assertFalse(pids.startedAndAlive("never-started"));
    }
}
