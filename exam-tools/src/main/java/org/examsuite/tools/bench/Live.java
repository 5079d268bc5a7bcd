package org.examsuite.tools.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * bench/live (issue 20's load): SESSIONS candidate sockets on one session-service replica (the
 * live channel as the SDK opens it), then one exam-wide command (pause, then resume) timed from the
 * API call to each socket. Its own session-service on 18092 (database exam_bench, Redis db 5),
 * seeded through the API (bench/heartbeat/Seed.java), driven by Node and the ws package (sockets.mjs).
 */
final class Live implements Benchmark {
    /** What the tables show of sockets.mjs's summary, as JavaScript prints it (the scripts' node -e). */
    static final List<String> FIGURES = List.of("j.sockets", "j.failed", "j.connectPerSecond", "j.connectP50", "j.connectP99",
            "j.connectCpuMsPerSocket.toFixed(2)", "j.rssBeforeMiB", "j.rssOpenMiB", "j.rssPeakMiB", "j.kibPerSocket",
            "j.paused.answeredMs", "j.paused.delivered", "j.paused.first", "j.paused.p50", "j.paused.p99", "j.paused.max",
            "j.resumed.answeredMs", "j.resumed.delivered", "j.resumed.first", "j.resumed.p50", "j.resumed.p99", "j.resumed.max",
            "j.serviceAlive", "j.commandCpuMsPerSocket.toFixed(3)");

    @Override
    public void run(BenchRun r) throws Exception {
        int sessions = r.envInt("SESSIONS", 10000);
        String inFlight = r.env("IN_FLIGHT", "200"); // sockets being opened at once
        SessionService session = new SessionService(r, 18092, "exam_bench", 5); // autosave 2, deadline storm 3, heartbeat 4
        // the bench measures what a replica can hold, not its configured cap (exam.live.max-sockets, 5,000)
        r.export("EXAM_LIVE_MAX_SOCKETS", Integer.toString(sessions));
        Path work = r.work();
        ProcFs proc = r.proc();

        r.need("node", "psql");
        if (!Files.isDirectory(r.home().resolve("exam-client/node_modules/ws"))) {
            r.exec(List.of("sh", "-c", "cd exam-client && npm ci --no-audit --no-fund >/dev/null"), Map.of(), null);
        }
        ServiceProcess service = session.start();
        r.onClose(() -> { // kept beside the results (runs before the session's cleanup)
            try {
                Files.copy(service.log(), r.results().resolve(r.stamp() + "-service.log"), StandardCopyOption.REPLACE_EXISTING);
            } catch (java.io.IOException e) {
                // no log: nothing to keep
            }
        });
        String url = session.url();
        Path sessionsFile = work.resolve("sessions.txt");
        r.java(List.of(r.home().resolve("bench/heartbeat/Seed.java").toString(), url, Integer.toString(sessions),
                r.keys().privateFile("operator").toString(), sessionsFile.toString()), null);
        String load = proc.loadAverage();
        Path summary = work.resolve("summary.json");
        r.stdout(List.of("node", r.dir().resolve("sockets.mjs").toString(), url, sessionsFile.toString(), work.resolve("sessions.txt.operator").toString(),
                r.read(work.resolve("sessions.txt.exam")).strip(), Long.toString(service.pid()), inFlight), summary);
        Files.copy(summary, r.results().resolve(r.stamp() + ".json"), StandardCopyOption.REPLACE_EXISTING);
        List<String> f = figures(r, summary);

        r.report("# Live-channel benchmark " + r.stamp(), "",
                "Host: " + Runtime.getRuntime().availableProcessors() + " cores, " + System.getProperty("os.name") + " "
                        + System.getProperty("os.version") + "; " + sessions + " sessions, " + inFlight
                        + " sockets opened at once; driver (Node, ws) on the same host; load average " + load + " before the sockets.");
        r.report(tables(f));
        r.report("");
        if (!f.get(22).equals("true")) {
            r.report("**The replica died while the sockets were opened** (its log: bench/live/results/" + r.stamp() + "-service.log).");
        }
        r.report("", "Latency from the operator's POST to each socket's message; replica CPU for the two commands " + f.get(23)
                + " ms per socket and command. Service JVM: " + session.javaOpts() + ", MALLOC_ARENA_MAX=" + r.env("MALLOC_ARENA_MAX") + ".");
        r.show("\nresults: " + r.out());
    }

    /** The two tables, out of FIGURES' values in their order. */
    static List<String> tables(List<String> f) {
        return List.of("",
                "| sockets open | failed | connects/s | connect p50 / p99 | replica CPU per connect | RSS before → open (peak) | per socket |",
                "|---|---|---|---|---|---|---|",
                "| " + f.get(0) + " | " + f.get(1) + " | " + f.get(2) + " | " + f.get(3) + " / " + f.get(4) + " ms | " + f.get(5) + " ms | "
                        + f.get(6) + " → " + f.get(7) + " MiB (" + f.get(8) + ") | " + f.get(9) + " KiB |",
                "",
                "| exam-wide command | API answered | delivered | first | p50 | p99 | max |",
                "|---|---|---|---|---|---|---|",
                "| pause (PAUSED to every socket) | " + f.get(10) + " ms | " + f.get(11) + " | " + f.get(12) + " ms | " + f.get(13) + " ms | "
                        + f.get(14) + " ms | " + f.get(15) + " ms |",
                "| resume (RESUMED) | " + f.get(16) + " ms | " + f.get(17) + " | " + f.get(18) + " ms | " + f.get(19) + " ms | " + f.get(20)
                        + " ms | " + f.get(21) + " ms |");
    }

    /** FIGURES' values, one node call (JavaScript's own number printing and toFixed). */
    private static List<String> figures(BenchRun r, Path summary) {
        String script = "const j = require(process.argv[1]); for (const e of process.argv.slice(2)) {"
                + " let v; try { v = eval(e); } catch (x) { v = 'undefined'; } console.log(String(v)); }";
        List<String> command = new ArrayList<>(List.of("node", "-e", script, summary.toString()));
        command.addAll(FIGURES);
        Path out = r.work().resolve("figures.txt");
        r.stdout(command, out);
        List<String> values = new ArrayList<>(r.read(out).lines().toList());
        while (values.size() < FIGURES.size()) {
            values.add("undefined");
        }
        return values;
    }
}
