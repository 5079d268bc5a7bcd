package org.examsuite.tools.suite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.examsuite.tools.host.Procs;
import org.examsuite.tools.host.Workspace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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
                    + "/pom.xml suite-contracts/src/main suite-contracts/pom.xml suite-common/src/main suite-common/pom.xml pom.xml -type f | LC_ALL=C sort | xargs sha256sum; echo " + home
                    + "; } | sha256sum | cut -c1-16")).strip();
            assertEquals(shell, natives.key(s, Path.of(home)), s.module());
        }
    }

    /**
     * After the native stage, later stages take target/native as it is (EXAM_NATIVE_BUILD=as-built):
     * no toolchain, no build, whatever the sources say; here there is no toolchain to find at all.
     */
    @Test
    void asBuiltTakesTargetNativeAsItIs(@TempDir Path home) throws Exception {
        Map<String, String> env = new HashMap<>(System.getenv());
        env.put("EXAM_NATIVE_BUILD", NativeBuilds.AS_BUILT);
        env.remove("GRAALVM_HOME");
        Workspace ws = new Workspace(home, env);
        NativeBuilds natives = new NativeBuilds(ws, new Procs(ws), new Maven(ws));
        for (Service s : Service.values()) {
            Path exe = natives.executable(s);
            Files.createDirectories(exe.getParent());
            Files.writeString(exe, "#!/bin/sh\n");
            Files.setPosixFilePermissions(exe, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        natives.build(List.of(Service.values()), null, 0);
        for (Service s : Service.values()) {
            assertTrue(natives.present(s), s.module());
        }
    }

    /** The budget bounds the stage, not only when the last build starts: 439 s then 487 s fit 900 s, a third does not. */
    @Test
    void aBuildStartsOnlyWhenOneAsLongAsTheLongestStillFits() {
        assertTrue(NativeBuilds.anotherFits(0, 0, 900));
        assertTrue(NativeBuilds.anotherFits(439, 439, 900));
        assertFalse(NativeBuilds.anotherFits(926, 487, 900));
        assertFalse(NativeBuilds.anotherFits(500, 487, 900));
        assertTrue(NativeBuilds.anotherFits(5_000, 5_000, 0));
    }
}
