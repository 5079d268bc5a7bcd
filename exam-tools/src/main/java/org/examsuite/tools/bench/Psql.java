package org.examsuite.tools.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.examsuite.tools.host.Fail;
import org.examsuite.tools.host.Procs;

/** A bench's database through psql (-h EXAM_DB_HOST -U EXAM_DB_USER), as the scripts queried it. */
final class Psql {
    private final Procs procs;
    private final String host;
    private final String user;
    private final String database;

    Psql(Procs procs, String host, String user, String database) {
        this.procs = procs;
        this.host = host;
        this.user = user;
        this.database = database;
    }

    String database() {
        return database;
    }

    /** psql -tAc QUERY: its output without the last line end; a failure when psql fails. */
    String query(String sql) {
        return query(database, sql);
    }

    private String query(String db, String sql) {
        Procs.Result r = procs.capture(List.of("psql", "-h", host, "-U", user, "-d", db, "-tAc", sql));
        if (!r.ok()) {
            throw new Fail("psql failed (exit " + r.exitCode() + "): " + sql);
        }
        return r.out().strip();
    }

    /** ensure_database: the bench's database, created when missing. */
    void ensureDatabase() {
        if (!query("postgres", "SELECT 1 FROM pg_database WHERE datname = '" + database + "'").contains("1")) {
            query("postgres", "CREATE DATABASE " + database);
        }
    }

    /** psql -q with SCRIPT on stdin (its output into LOG); true when psql succeeded. */
    boolean script(String script, Path log) {
        return procs.feed(List.of("psql", "-h", host, "-U", user, "-d", database, "-q"), script, log) == 0;
    }

    /** Like {@link #script}, a failure with psql's output when it fails. */
    void mustRun(String script, Path log) {
        if (!script(script, log)) {
            String out;
            try {
                out = Files.readString(log);
            } catch (IOException e) {
                out = "";
            }
            throw new Fail("psql failed: " + out.strip());
        }
    }
}
