package org.examsuite.tools.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import org.examsuite.tools.host.Say;

/**
 * bench/heartbeat: session-service's hot path (every candidate's device calls it every few
 * seconds, docs/api.md §3.2) — POST /api/v1/sessions/{id}/heartbeat with the session's token over
 * thousands of started sessions, at several connection counts. Its own session-service on 18091
 * (database exam_bench, Redis db 4); the sessions created through the service's API (Seed.java).
 */
final class Heartbeat implements Benchmark {
    @Override
    public void run(BenchRun r) throws Exception {
        int sessions = r.envInt("SESSIONS", 2000);
        List<Integer> connections = r.envInts("CONNECTIONS", "50 200");
        int duration = r.envInt("DURATION", 30);
        int warmup = r.envInt("WARMUP", 30);
        int threads = r.envInt("THREADS", 2);
        SessionService session = new SessionService(r, 18091, "exam_bench", 4); // autosave 2, deadline storm 3, live 5
        // wrk sends each session far more than the 120 heartbeats a minute a candidate may: the limit's
        // Redis call stays on the measured path, high enough that it refuses nothing
        r.export("EXAM_LIMITS_HEARTBEATS_PER_MINUTE", "1000000000");
        Path work = r.work();
        ProcFs proc = r.proc();

        r.need("wrk", "psql");
        ServiceProcess service = session.start();
        String url = session.url();
        Path sessionsFile = work.resolve("sessions.txt");
        r.java(List.of(r.dir().resolve("Seed.java").toString(), url, Integer.toString(sessions), r.keys().privateFile("operator").toString(),
                sessionsFile.toString()), null);
        Map<String, String> env = Map.of("BENCH_SESSIONS", sessionsFile.toString());
        Path script = r.dir().resolve("wrk.lua");

        Say.say("warm-up: " + warmup + "s at 200 connections (discarded)");
        Wrk.run(r, threads, 200, warmup, script, url, env, work.resolve("warm.txt"));
        r.report("# Heartbeat benchmark " + r.stamp(), "",
                "Host: " + Runtime.getRuntime().availableProcessors() + " cores, " + System.getProperty("os.name") + " "
                        + System.getProperty("os.version") + "; sessions: " + sessions + "; wrk -t" + threads + ", " + duration
                        + "s per cell (warm-up " + warmup + "s); load generator on the same host; load average " + proc.loadAverage()
                        + " at the start.",
                "", "| connections | req/s | p50 | p99 | non-2xx | socket errors | CPU µs/req service / Redis / PostgreSQL |",
                "|---|---|---|---|---|---|---|");
        for (int c : connections) {
            long[] before = proc.snapshot(service.pid());
            Path out = work.resolve("h-" + c + ".txt");
            Wrk.Result w = Wrk.run(r, threads, c, duration, script, url, env, out);
            long[] after = proc.snapshot(service.pid());
            r.report(row(c, w, CpuFigures.microsPerRequestTruncated(before, after, Awk.number(w.requests()))));
            Files.copy(out, r.results().resolve(r.stamp() + "-" + c + ".wrk.txt"), StandardCopyOption.REPLACE_EXISTING);
        }
        r.report("", "Service JVM: " + session.javaOpts() + ", MALLOC_ARENA_MAX=" + r.env("MALLOC_ARENA_MAX") + "; peak RSS (VmHWM) "
                + proc.mib(service.pid(), "VmHWM", "") + ". CPU per request: each process's utime+stime over the run ÷ wrk's requests;"
                + " PostgreSQL = all postgres processes (shared: other load counts too).");
        r.show("\nresults: " + r.out() + " (raw wrk output beside it)");
    }

    static String row(int c, Wrk.Result w, String cpu) {
        return "| " + c + " | " + w.rps() + " | " + w.p50() + " | " + w.p99() + " | " + w.non2xx() + " | " + w.errors() + " | " + cpu + " |";
    }
}
