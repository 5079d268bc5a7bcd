package org.examsuite.tools.images;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import org.examsuite.tools.host.Workspace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RootFsTest {
    @TempDir
    Path tmp;

    @Test
    void lddsLibrariesAndLoaderWithoutTheImagesOwn() {
        String ldd = """
                /tmp/w/jre/opt/java/bin/java:
                \tlinux-vdso.so.1 (0x00007ffd)
                \tlibz.so.1 => /lib/x86_64-linux-gnu/libz.so.1 (0x00007f1b)
                \tlibjli.so => /tmp/w/jre/opt/java/bin/../lib/libjli.so (0x00007f1c)
                \tlibfoo.so => not found
                \tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x00007f1d)
                \t/lib64/ld-linux-x86-64.so.2 (0x00007f1e)
                """;

        assertEquals(List.of("/lib/x86_64-linux-gnu/libc.so.6", "/lib/x86_64-linux-gnu/libz.so.1", "/lib64/ld-linux-x86-64.so.2"),
                List.copyOf(RootFs.libraries(ldd, Path.of("/tmp/w/jre"))));
    }

    @Test
    void theRootFilesystemsUsersAndStickyTmp() throws Exception {
        Path root = tmp.resolve("root");
        new RootFs(new Children(new Workspace(Path.of("."), System.getenv()))).create(root);

        assertTrue(Files.readString(root.resolve("etc/passwd")).contains("default:x:185:185:app:/tmp:/sbin/nologin\n"));
        assertTrue(Files.readString(root.resolve("etc/group")).contains("native:x:1001:\n"));
        assertEquals("rwxrwxrwx", PosixFilePermissions.toString(Files.getPosixFilePermissions(root.resolve("tmp"))));
        assertEquals(01777, (int) Files.getAttribute(root.resolve("tmp"), "unix:mode") & 07777);
        assertEquals("passwd: files\ngroup: files\nhosts: files dns\n", Files.readString(root.resolve("etc/nsswitch.conf")));
    }
}
