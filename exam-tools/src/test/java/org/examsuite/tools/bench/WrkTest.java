package org.examsuite.tools.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** wrk --latency output read as lib.sh's field read it. */
class WrkTest {
    /** A real autosave run's output (bench/autosave/results/*-autosave-50.wrk.txt). */
    static final String CLEAN = """
            Running 5s test @ http://127.0.0.1:18082
              2 threads and 50 connections
              Thread Stats   Avg      Stdev     Max   +/- Stdev
                Latency   534.03ms  456.85ms   2.21s    76.64%
                Req/Sec    69.48     77.37   330.00     87.32%
              Latency Distribution
                 50%  436.93ms
                 75%  784.26ms
                 90%    1.24s\s
                 99%    2.17s\s
              552 requests in 5.16s, 83.94KB read
            Requests/sec:    107.00
            Transfer/sec:     16.27KB
            """;

    static final String TROUBLED = """
            Running 30s test @ http://127.0.0.1:18082
              2 threads and 1000 connections
              Latency Distribution
                 50%  120.50ms
                 99%    1.02s\s
              88211 requests in 30.10s, 13.41MB read
              Socket errors: connect 0, read 12, write 0, timeout 37
              Non-2xx or 3xx responses: 15
            Requests/sec:   2930.58
            """;

    @Test
    void aCleanRunHasItsFiguresNoNon2xxAndNoSocketErrors() {
        assertEquals(new Wrk.Result("107.00", "436.93ms", "2.17s", "0", "552", "none"), Wrk.parse(CLEAN));
        assertEquals(552, Wrk.parse(CLEAN).requestsAtLeastOne());
    }

    @Test
    void socketErrorsAndNon2xxAreReadAsWrkPrintsThem() {
        assertEquals(new Wrk.Result("2930.58", "120.50ms", "1.02s", "15", "88211", "connect 0, read 12, write 0, timeout 37"),
                Wrk.parse(TROUBLED));
    }

    @Test
    void noOutputGivesEmptyFiguresAsAwkPrintedNothing() {
        Wrk.Result none = Wrk.parse("unable to connect to 127.0.0.1:18082 Connection refused\n");
        assertEquals(new Wrk.Result("", "", "", "0", "", "none"), none);
        assertEquals(1, none.requestsAtLeastOne());
    }
}
