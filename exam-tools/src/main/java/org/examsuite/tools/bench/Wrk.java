package org.examsuite.tools.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** wrk runs (--latency, 10 s timeout) and the figures of their output, as lib.sh's field read them. */
final class Wrk {
    /** One run's figures, as printed (empty when wrk printed none, as awk's print of nothing). */
    record Result(String rps, String p50, String p99, String non2xx, String requests, String errors) {
        /** wrk's request count, at least 1 (a per-request figure never divides by 0). */
        long requestsAtLeastOne() {
            return Math.max(1, (long) Awk.number(requests));
        }
    }

    private Wrk() {
    }

    static Result parse(String output) {
        String rps = "";
        String p50 = "";
        String p99 = "";
        String requests = "";
        String non2xx = "";
        String errors = "";
        for (String line : output.split("\n")) {
            String[] w = line.trim().split("\\s+");
            if (line.startsWith("Requests/sec") && w.length > 1) {
                rps = w[1];
            } else if (line.matches("^ +50%.*") && w.length > 1) {
                p50 = w[1];
            } else if (line.matches("^ +99%.*") && w.length > 1) {
                p99 = w[1];
            }
            if (line.contains("Non-2xx")) {
                non2xx = w[w.length - 1];
            }
            if (line.contains("requests in")) {
                requests = w[0];
            }
            if (line.contains("Socket errors")) {
                errors = line.substring(line.indexOf("Socket errors: ") + "Socket errors: ".length());
            }
        }
        return new Result(rps, p50, p99, Awk.str(Awk.number(non2xx)), requests, errors.isEmpty() ? "none" : errors);
    }

    /** wrk -tT -cC -dDs with SCRIPT against URL, its output into OUT; its figures (a failed wrk: what it printed). */
    static Result run(BenchRun run, int threads, int connections, int seconds, Path script, String url,
            Map<String, String> env, Path out) {
        List<String> command = new ArrayList<>(List.of("wrk", "-t" + threads, "-c" + connections, "-d" + seconds + "s",
                "--timeout", "10s", "--latency", "-s", script.toString(), url));
        run.exec(command, env, out);
        try {
            return parse(Files.readString(out));
        } catch (IOException e) {
            return parse("");
        }
    }
}
