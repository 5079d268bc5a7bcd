package org.examsuite.demo.drill;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ScheduleCheckTest {
    @TempDir
    Path home;

    private DrillPaths paths(String tsv, boolean done) throws IOException {
        DrillPaths paths = new DrillPaths(home);
        Files.createDirectories(paths.logs());
        Files.writeString(paths.faultsTsv(), tsv);
        if (done) {
            Files.writeString(paths.faultsDone(), "");
        } else {
            Files.deleteIfExists(paths.faultsDone());
        }
        return paths;
    }

    @Test
    void passesWhenEveryKindRanAndNoneFailed() throws IOException {
        DrillPaths paths = paths("1\t2\tkill\tanswer-a\tkill -9 pid 5\n3\t4\tpause\tsession-b\tSIGSTOP for 8 s\n"
                + "5\t6\tcrashRestart\tgrading-a\texited on its own\n", true);
        assertTrue(new ScheduleCheck(paths, List.of("kill", "pause")).passed());
    }

    @Test
    void failsOnAMissingKindAFailedFaultOrAnUnfinishedSchedule() throws IOException {
        assertFalse(new ScheduleCheck(paths("1\t2\tkill\tanswer-a\tok\n", true), List.of("kill", "pause")).passed());
        assertFalse(new ScheduleCheck(paths("1\t2\tkill\tanswer-a\tFAILED: not ready\n", true), List.of("kill")).passed());
        assertFalse(new ScheduleCheck(paths("1\t2\tkill\tanswer-a\tok\n", false), List.of("kill")).passed());
    }
}
