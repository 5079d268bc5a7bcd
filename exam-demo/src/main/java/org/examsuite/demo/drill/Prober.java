package org.examsuite.demo.drill;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Supplier;

/**
 * Probes every service through the ingress every {@code everyMs} while the drill runs: one cheap operator GET per
 * service that reaches its stores (an exam, a draft, a paper, a result — a 404 for an unknown id is an answer too).
 * "Served" means an HTTP answer below 500 within the probe's timeout: what a client needs to carry on.
 */
public final class Prober implements AutoCloseable {
    /** One probe: {@code status} -1 when nothing answered in time. */
    public record Probe(String service, long atEpochMs, int status, long micros) {
        public boolean served() {
            return status >= 0 && status < 500;
        }
    }

    /** A service's probe: the path to GET, asked anew each time (the probe's session is known only later). */
    public record Target(String service, Supplier<String> path) {
    }

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();
    private final ConcurrentLinkedQueue<Probe> probes = new ConcurrentLinkedQueue<>();
    private final List<Thread> threads = new ArrayList<>();
    private final URI base;
    private final String operatorToken;
    private final long everyMs;
    private final Duration timeout;
    private volatile boolean running = true;

    public Prober(URI base, String operatorToken, long everyMs, Duration timeout) {
        this.base = base;
        this.operatorToken = operatorToken;
        this.everyMs = everyMs;
        this.timeout = timeout;
    }

    /** The suite's four services, each by a GET that reads its stores. */
    public static List<Target> suiteTargets(String examId, Supplier<String> sessionId) {
        String unknown = "00000000-0000-4000-8000-000000000000";
        return List.of(new Target("session", () -> "/api/v1/exams/" + examId),
                new Target("answer", () -> "/api/v1/answers/" + orElse(sessionId.get(), unknown)),
                new Target("submission", () -> "/api/v1/submissions/" + unknown),
                new Target("grading", () -> "/api/v1/results/" + unknown));
    }

    private static String orElse(String value, String fallback) {
        return value == null ? fallback : value;
    }

    /** One thread per target, so that a hanging service does not slow the probes of the others. */
    public Prober start(List<Target> targets) {
        for (Target target : targets) {
            Thread thread = new Thread(() -> loop(target), "probe-" + target.service());
            thread.setDaemon(true);
            threads.add(thread);
            thread.start();
        }
        return this;
    }

    private void loop(Target target) {
        while (running) {
            long at = System.currentTimeMillis();
            Probe probe = probe(target, at);
            if (!running) {
                return; // cut short by close(): not the service's failure
            }
            probes.add(probe);
            long sleep = everyMs - (System.currentTimeMillis() - at);
            if (sleep > 0) {
                try {
                    Thread.sleep(sleep);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
    }

    private Probe probe(Target target, long at) {
        long start = System.nanoTime();
        try {
            HttpRequest request = HttpRequest.newBuilder(base.resolve(target.path().get())).timeout(timeout)
                    .header("Authorization", "Bearer " + operatorToken).header("Accept", "application/json").GET().build();
            HttpResponse<Void> response = http.send(request, HttpResponse.BodyHandlers.discarding());
            return new Probe(target.service(), at, response.statusCode(), (System.nanoTime() - start) / 1000);
        } catch (IOException e) {
            return new Probe(target.service(), at, -1, (System.nanoTime() - start) / 1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Probe(target.service(), at, -1, (System.nanoTime() - start) / 1000);
        }
    }

    public List<Probe> probes() {
        return new ArrayList<>(probes);
    }

    /** Probes served per service, for the summary. */
    public static Map<String, long[]> servedByService(List<Probe> probes) {
        Map<String, long[]> counts = new java.util.TreeMap<>();
        for (Probe probe : probes) {
            long[] c = counts.computeIfAbsent(probe.service(), s -> new long[2]);
            c[0]++;
            if (probe.served()) {
                c[1]++;
            }
        }
        return counts;
    }

    @Override
    public void close() {
        running = false;
        threads.forEach(Thread::interrupt);
    }
}
