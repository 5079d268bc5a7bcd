// The deadline storm driver (issue 4): N candidates with autosaved drafts submit their final
// sheets within a window of W seconds, like the last seconds before a deadline, with the
// client behaviour of DESIGN.md §3.3 — retries of network errors, 5xx, 409 and 429 honouring
// Retry-After, capped exponential backoff with full jitter — plus double clicks (the same key
// twice at once) and second devices (a new key shortly after). JDK only, single-file program:
//
//   java Storm.java drafts  <sessions-file> <answer-url>                       # autosave a draft per session
//   java Storm.java storm   <sessions-file> <submission-url> <window-seconds> <report.md>
//   java Storm.java session-stub <port>                                        # session-service's /internal stubs
//
// <sessions-file> has "<sessionId> <candidate-token>" lines (bench/autosave/Seed.java writes it).
// The report gives throughput, latency percentiles, outcomes, duplicates and missing papers.
import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

public class Storm {
    static final Pattern PAPER_ID = Pattern.compile("\"paperId\":\"([0-9a-f-]{36})\"");
    static final double DOUBLE_CLICK = Double.parseDouble(System.getProperty("doubleClick", "0.10"));
    static final double SECOND_DEVICE = Double.parseDouble(System.getProperty("secondDevice", "0.05"));
    static final long GIVE_UP_MS = Long.getLong("giveUpMs", 120_000);
    static final long BACKOFF_CAP_MS = Long.getLong("backoffCapMs", 4_000);

    record Session(String id, String token) {
    }

    /** One client's request chain (first try to final answer). */
    record Outcome(String sessionId, int status, String paperId, long startNanos, long endNanos, int attempts, String body) {
    }

    // HTTP/1.1, a connection per request in flight: candidates are separate browsers, and an ingress
    // speaks HTTP/1.1 to the service. The JDK default (h2c upgrade) would multiplex every client on one
    // connection, so one server event loop would carry the whole storm.
    static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5))
            .executor(Executors.newFixedThreadPool(4)).build();
    static final ScheduledExecutorService TIMER = Executors.newScheduledThreadPool(2);
    static final AtomicInteger ATTEMPTS = new AtomicInteger();
    static final Map<Integer, AtomicInteger> ATTEMPT_STATUS = new ConcurrentHashMap<>();
    static final List<Long> ATTEMPT_NANOS = Collections.synchronizedList(new ArrayList<>());

    public static void main(String[] args) throws Exception {
        switch (args[0]) {
            case "session-stub" -> sessionStub(Integer.parseInt(args[1]));
            case "drafts" -> drafts(read(args[1]), args[2]);
            case "storm" -> storm(read(args[1]), args[2], Double.parseDouble(args[3]), Path.of(args[4]));
            default -> throw new IllegalArgumentException("drafts | storm | session-stub");
        }
    }

    static List<Session> read(String file) throws Exception {
        List<Session> sessions = new ArrayList<>();
        for (String line : Files.readAllLines(Path.of(file))) {
            String[] parts = line.trim().split(" ");
            if (parts.length == 2) {
                sessions.add(new Session(parts[0], parts[1]));
            }
        }
        return sessions;
    }

    /** session-service as submission-service sees it: publish is never needed (404), /submitted is 204. */
    static void sessionStub(int port) throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 512);
        server.setExecutor(Executors.newFixedThreadPool(2));
        server.createContext("/", exchange -> {
            exchange.getRequestBody().readAllBytes();
            exchange.sendResponseHeaders(exchange.getRequestURI().getPath().endsWith("/submitted") ? 204 : 404, -1);
            exchange.close();
        });
        server.start();
        System.out.println("session-service stub on " + port);
    }

    /** A draft per session through answer-service's real autosave: q1..q3 at version 1. */
    static void drafts(List<Session> sessions, String answerUrl) throws Exception {
        Semaphore inFlight = new Semaphore(64);
        AtomicInteger failed = new AtomicInteger();
        List<CompletableFuture<?>> all = new ArrayList<>();
        for (Session s : sessions) {
            inFlight.acquire();
            String body = "{\"version\":1,\"changes\":[{\"questionId\":\"q1\",\"value\":\"draft-1\"},"
                    + "{\"questionId\":\"q2\",\"value\":\"draft-2\"},{\"questionId\":\"q3\",\"value\":\"draft-3\"}]}";
            HttpRequest request = HttpRequest.newBuilder(URI.create(answerUrl + "/api/v1/answers/" + s.id()))
                    .timeout(Duration.ofSeconds(30)).header("Authorization", "Bearer " + s.token())
                    .header("Content-Type", "application/json").method("PATCH", HttpRequest.BodyPublishers.ofString(body)).build();
            all.add(HTTP.sendAsync(request, HttpResponse.BodyHandlers.discarding()).whenComplete((r, e) -> {
                inFlight.release();
                if (e != null || r.statusCode() != 200) {
                    failed.incrementAndGet();
                }
            }));
        }
        CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).exceptionally(e -> null).join();
        System.out.println("drafts: " + sessions.size() + " sessions, " + failed.get() + " failed");
        System.exit(failed.get() > 0 ? 1 : 0);
    }

    /** The final sheet: q1 newer than its draft, q4 new; q2 and q3 come from the draft. */
    static String sheet(Session s) {
        return "{\"sessionId\":\"" + s.id() + "\",\"answers\":{\"q1\":{\"value\":\"final-1\",\"version\":2},"
                + "\"q4\":{\"value\":\"final-4\",\"version\":1}}}";
    }

    static void storm(List<Session> sessions, String url, double windowSeconds, Path report) throws Exception {
        List<CompletableFuture<Outcome>> chains = Collections.synchronizedList(new ArrayList<>());
        long t0 = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(500);
        CompletableFuture<Void> scheduled = new CompletableFuture<>();
        AtomicInteger toSchedule = new AtomicInteger(sessions.size());
        for (Session s : sessions) {
            long at = t0 + (long) (ThreadLocalRandom.current().nextDouble() * windowSeconds * 1e9);
            TIMER.schedule(() -> {
                String key = UUID.randomUUID().toString();
                chains.add(chain(url, s, key));
                if (ThreadLocalRandom.current().nextDouble() < DOUBLE_CLICK) {
                    chains.add(chain(url, s, key));
                }
                if (ThreadLocalRandom.current().nextDouble() < SECOND_DEVICE) {
                    CompletableFuture<Outcome> later = new CompletableFuture<>();
                    chains.add(later);
                    TIMER.schedule(() -> chain(url, s, UUID.randomUUID().toString()).whenComplete((o, e) -> later.complete(o)),
                            200, TimeUnit.MILLISECONDS);
                }
                if (toSchedule.decrementAndGet() == 0) {
                    scheduled.complete(null);
                }
            }, at - System.nanoTime(), TimeUnit.NANOSECONDS);
        }
        scheduled.join();
        List<Outcome> outcomes = new ArrayList<>();
        for (CompletableFuture<Outcome> chain : new ArrayList<>(chains)) {
            outcomes.add(chain.join());
        }
        write(report, sessions, outcomes, windowSeconds, t0);
        TIMER.shutdownNow();
        System.exit(0);
    }

    /** One client: tries until a final answer, as DESIGN.md §3.3 tells clients to. */
    static CompletableFuture<Outcome> chain(String url, Session s, String key) {
        CompletableFuture<Outcome> done = new CompletableFuture<>();
        attempt(url, s, key, System.nanoTime(), 1, done);
        return done;
    }

    static void attempt(String url, Session s, String key, long start, int attempt, CompletableFuture<Outcome> done) {
        HttpRequest request = HttpRequest.newBuilder(URI.create(url + "/api/v1/submissions")).timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + s.token()).header("Idempotency-Key", key)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(sheet(s))).build();
        long sent = System.nanoTime();
        ATTEMPTS.incrementAndGet();
        HTTP.sendAsync(request, HttpResponse.BodyHandlers.ofString()).whenComplete((response, error) -> {
            long now = System.nanoTime();
            ATTEMPT_NANOS.add(now - sent);
            int status = error != null ? 0 : response.statusCode();
            ATTEMPT_STATUS.computeIfAbsent(status, k -> new AtomicInteger()).incrementAndGet();
            boolean retry = status == 0 || status >= 500 || status == 409 || status == 429;
            if (!retry || now - start > TimeUnit.MILLISECONDS.toNanos(GIVE_UP_MS)) {
                String body = response == null ? "" : response.body();
                Matcher m = PAPER_ID.matcher(body);
                done.complete(new Outcome(s.id(), status, m.find() ? m.group(1) : null, start, now, attempt, body));
                return;
            }
            long exp = Math.min(BACKOFF_CAP_MS, 100L << Math.min(attempt, 10));
            long delay = ThreadLocalRandom.current().nextLong(exp + 1); // full jitter
            String retryAfter = response == null ? null : response.headers().firstValue("Retry-After").orElse(null);
            if (retryAfter != null) {
                try {
                    delay = Long.parseLong(retryAfter.trim()) * 1000 + ThreadLocalRandom.current().nextLong(250);
                } catch (NumberFormatException ignored) {
                    // an HTTP date: keep the backoff
                }
            }
            TIMER.schedule(() -> attempt(url, s, key, start, attempt + 1, done), delay, TimeUnit.MILLISECONDS);
        });
    }

    static void write(Path report, List<Session> sessions, List<Outcome> outcomes, double window, long t0) throws Exception {
        Map<String, Set<String>> papersBySession = new ConcurrentHashMap<>();
        Map<Integer, Integer> finals = new TreeMap<>();
        int wrongContent = 0;
        long first = Long.MAX_VALUE;
        long last = 0;
        List<Long> latencies = new ArrayList<>();
        for (Outcome o : outcomes) {
            finals.merge(o.status(), 1, Integer::sum);
            first = Math.min(first, o.startNanos());
            last = Math.max(last, o.endNanos());
            latencies.add(o.endNanos() - o.startNanos());
            if (o.paperId() != null) {
                papersBySession.computeIfAbsent(o.sessionId(), k -> ConcurrentHashMap.newKeySet()).add(o.paperId());
                if (!(o.body().contains("\"q1\":{\"epoch\":1,\"value\":\"final-1\"")
                        && o.body().contains("\"value\":\"final-4\"") && o.body().contains("\"value\":\"draft-2\""))) {
                    wrongContent++;
                }
            }
        }
        long duplicates = papersBySession.values().stream().filter(p -> p.size() > 1).count();
        long missing = sessions.stream().filter(s -> !papersBySession.containsKey(s.id())).count();
        Collections.sort(latencies);
        List<Long> attempts;
        synchronized (ATTEMPT_NANOS) {
            attempts = new ArrayList<>(ATTEMPT_NANOS);
        }
        Collections.sort(attempts);
        double seconds = (last - first) / 1e9;
        StringBuilder out = new StringBuilder();
        out.append("| measure | value |\n|---|---|\n");
        out.append("| exam | ").append(examIdOf(sessions.get(0).token())).append(" |\n");
        out.append("| sessions | ").append(sessions.size()).append(" |\n");
        out.append("| submit window | ").append(window).append(" s |\n");
        out.append("| client chains (incl. double clicks, second devices) | ").append(outcomes.size()).append(" |\n");
        out.append("| HTTP attempts | ").append(ATTEMPTS.get()).append(" |\n");
        out.append("| drained in (first request to last final answer) | ").append(String.format("%.2f s", seconds)).append(" |\n");
        out.append("| papers/s over that time | ").append(String.format("%.0f", papersBySession.size() / seconds)).append(" |\n");
        out.append("| chain latency p50 / p99 / max (incl. retries) | ").append(ms(latencies, 0.50)).append(" / ")
                .append(ms(latencies, 0.99)).append(" / ").append(ms(latencies, 1.0)).append(" |\n");
        out.append("| attempt latency p50 / p99 | ").append(ms(attempts, 0.50)).append(" / ").append(ms(attempts, 0.99)).append(" |\n");
        out.append("| final statuses | ").append(finals).append(" |\n");
        out.append("| attempt statuses (0 = network error) | ").append(new TreeMap<>(ATTEMPT_STATUS)).append(" |\n");
        out.append("| **duplicates** (sessions answered with two paper ids) | **").append(duplicates).append("** |\n");
        out.append("| **missing** (sessions without a paper) | **").append(missing).append("** |\n");
        out.append("| papers without the newest answers | ").append(wrongContent).append(" |\n");
        Files.writeString(report, out.toString(), StandardCharsets.UTF_8);
        System.out.print(out);
    }

    static String ms(List<Long> sorted, double quantile) {
        if (sorted.isEmpty()) {
            return "-";
        }
        int index = (int) Math.min(sorted.size() - 1, Math.ceil(quantile * sorted.size()) - 1);
        return String.format("%.0f ms", sorted.get(Math.max(0, index)) / 1e6);
    }

    static String examIdOf(String token) {
        String payload = new String(Base64.getUrlDecoder().decode(token.split("\\.")[1]), StandardCharsets.UTF_8);
        Matcher m = Pattern.compile("\"examId\":\"([^\"]+)\"").matcher(payload);
        return m.find() ? m.group(1) : "";
    }
}
