package org.examsuite.tools.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What the peak-RSS sampler recognises: the service of a command line, VmHWM of a status file. */
class PeakRssTest {
    @Test
    void aServiceIsNamedByItsJarOrItsNativeExecutable() {
        assertEquals(Optional.of("answer-service"), PeakRss.service(
                "java -Xmx112m -Dexam.service=answer-service -jar /work/wt-bench/answer-service/target/quarkus-app/quarkus-run.jar"));
        assertEquals(Optional.of("grading-saga"), PeakRss.service(
                "/work/exam/grading-saga/target/native/grading-saga -Xmx112m -Dexam.service=grading-saga"));
        assertEquals(Optional.empty(), PeakRss.service("/bin/bash /work/exam/bench/autosave/run.sh"));
        assertEquals(Optional.empty(), PeakRss.service("wrk -t2 -c50 http://127.0.0.1:18082/"));
    }

    @Test
    void vmHwmIsReadInKib() {
        String status = "Name:\tjava\nVmPeak:\t 3000000 kB\nVmHWM:\t  285696 kB\nVmRSS:\t  280000 kB\n";
        assertEquals(Optional.of(285696L), PeakRss.vmHwmKib(status));
        assertEquals(Optional.empty(), PeakRss.vmHwmKib("Name:\tkthreadd\n"));
    }
}
