package org.examsuite.demo.drill;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A pid file's pid: its first line (postmaster.pid has several; the fault postgresFailover kills the postmaster by it). */
class HostTest {
    @Test
    void thePostmasterPidIsTheFilesFirstLine(@TempDir Path data) throws Exception {
        Files.writeString(data.resolve("postmaster.pid"), "31415\n/work/pg\n1733500000\n15441\n/var/run/postgresql\n127.0.0.1\n");
        assertEquals(31415, Host.readPid(data.resolve("postmaster.pid")));
        Files.writeString(data.resolve("nginx.pid"), "2718\n");
        assertEquals(2718, Host.readPid(data.resolve("nginx.pid")));
        assertEquals(0, Host.readPid(data.resolve("absent")));
    }
}
