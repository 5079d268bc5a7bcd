package org.examsuite.demo.drill;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The postmaster's pid from its postmaster.pid (first line of several): the fault postgresFailover kills it by it. */
class PgHaTest {
    @Test
    void thePostmasterPidIsTheFileFirstLine(@TempDir Path data) throws Exception {
        Files.writeString(data.resolve("postmaster.pid"), "31415\n/work/pg\n1733500000\n15441\n/var/run/postgresql\n127.0.0.1\n");
        assertEquals(31415, PgHa.postmasterPid(data));
        assertEquals(0, PgHa.postmasterPid(data.resolve("absent")));
    }
}
