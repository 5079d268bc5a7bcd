package org.examsuite.demo.drill;

import java.io.IOException;

/** The drill's PostgreSQL: one node ({@link Postgres}) or a primary and a standby under an HA engine ({@link PgHa}). */
public interface Database {
    void up() throws IOException;

    /** pg_ctl restart -m immediate (of the primary): every backend killed, crash recovery at start. */
    boolean restartImmediately();

    void down();
}
