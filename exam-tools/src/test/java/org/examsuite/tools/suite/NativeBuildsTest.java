package org.examsuite.tools.suite;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import org.examsuite.tools.host.Procs;
import org.examsuite.tools.host.Workspace;
import org.junit.jupiter.api.Test;

/**
 * The cache key of a native executable must stay what every earlier build computed (find | sort |
 * sha256sum, then the toolchain's home), or every cached executable misses and CI rebuilds all four.
 */
class NativeBuildsTest {
    @Test
    void theKeyIsTheShellPipelinesKey() {
        Workspace ws = new Workspace(JvmFlagsTest.HOME, System.getenv());
        Procs procs = new Procs(ws);
        NativeBuilds natives = new NativeBuilds(ws, procs, new Maven(ws));
        String home = "/root/.m2/exam-native/graalvm-25.0.4-0123456789ab";
        for (Service s : Service.values()) {
            String shell = procs.output(List.of("bash", "-c", "{ find " + s.module() + "/src/main " + s.module()
                    + "/pom.xml suite-common/src/main suite-common/pom.xml pom.xml -type f | LC_ALL=C sort | xargs sha256sum; echo " + home
                    + "; } | sha256sum | cut -c1-16")).strip();
            assertEquals(shell, natives.key(s, Path.of(home)), s.module());
        }
    }
}
