// The deadline storm driver (issue 4): N candidates with autosaved drafts submit their final
// sheets within a window of W seconds, like the last seconds before a deadline, with the
// client behaviour of docs/api.md §3.3 — retries of network errors, 5xx, 409 and 429 honouring
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
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

public class Storm {
    static final Pattern PAPER_ID = Pattern.compile("\"paperId\":\"([0-9a-f-]{36})\"");
    static final double DOUBLE_CLICK = Double.parseDouble(System.getProperty("doubleClick", "0.10"));
    /** Requests outstanding at most (0: every client at once); a client past it waits its turn, counted in its chain latency. */
    static final int IN_FLIGHT = Integer.parseInt(System.getProperty("inFlight", "0"));
    static final double SECOND_DEVICE = Double.parseDouble(System.getProperty("secondDevice", "0.05"));
    static final long GIVE_UP_MS = Long.getLong("giveUpMs", 120_000);
    static final long BACKOFF_CAP_MS = Long.getLong("backoffCapMs", 4_000);

    record Session(String id, String token) {
    }

    /** One client's request chain (first try to final answer). */
    record Outcome(String sessionId, int status, String paperId, long startNanos, long endNanos, int attempts, String body) {
    }

    // The drafts' autosaves (not measured) use the JDK client over HTTP/1.1; the storm has its own
    // client (Driver). The JDK default (h2c upgrade) would multiplex every client on one
    // connection, so one server event loop would carry the whole load.
    static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5))
            .executor(Executors.newFixedThreadPool(4)).build();
    static final AtomicInteger ATTEMPTS = new AtomicInteger();
    static final Map<Integer, AtomicInteger> ATTEMPT_STATUS = new ConcurrentHashMap<>();
    /** Refusals by problem code ("503 SUBMISSIONS_OVERLOADED"): which door or dependency said no. */
    static final Map<String, AtomicInteger> REFUSAL_CODE = new ConcurrentHashMap<>();
    static final Pattern PROBLEM_CODE = Pattern.compile("\"code\"\\s*:\\s*\"([A-Z_]+)\"");
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
        double cpuBefore = cpuSeconds();
        URI base = URI.create(url);
        Driver driver = new Driver(new InetSocketAddress(base.getHost(), base.getPort()), base.getHost() + ":" + base.getPort());
        List<Chain> chains = new ArrayList<>();
        long t0 = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(500);
        for (Session s : sessions) {
            long at = t0 + (long) (ThreadLocalRandom.current().nextDouble() * windowSeconds * 1e9);
            driver.startAt(at, () -> {
                String key = UUID.randomUUID().toString();
                chains.add(driver.start(s, key));
                if (ThreadLocalRandom.current().nextDouble() < DOUBLE_CLICK) {
                    chains.add(driver.start(s, key));
                }
                if (ThreadLocalRandom.current().nextDouble() < SECOND_DEVICE) {
                    driver.startAt(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(200),
                            () -> chains.add(driver.start(s, UUID.randomUUID().toString())));
                }
            });
        }
        driver.runUntilIdle();
        List<Outcome> outcomes = new ArrayList<>();
        for (Chain chain : chains) {
            outcomes.add(chain.outcome);
        }
        write(report, sessions, outcomes, windowSeconds, t0, cpuSeconds() - cpuBefore);
        System.exit(0);
    }

    /** One client: tries until a final answer, as docs/api.md §3.3 tells clients to, on its own connection. */
    static final class Chain {
        final Session session;
        final String key;
        final long start = System.nanoTime();
        int attempts;
        Outcome outcome;
        // The connection (a browser keeps it alive between its retries unless the server closes it).
        SocketChannel channel;
        SelectionKey selectionKey;
        ByteBuffer request;
        byte[] received = new byte[0];
        int receivedLength;
        long sentAt;
        boolean awaiting; // an attempt is on the wire

        Chain(Session session, String key) {
            this.session = session;
            this.key = key;
        }
    }

    /**
     * The storm's load generator: a minimal HTTP/1.1 client on one NIO selector thread (the JDK's
     * HttpClient cost the machine ~3 ms of CPU per request — about as much as the service under
     * test — so the driver, not the service, set the pace). Timers (each client's start, its
     * Retry-After or backoff, the 30 s attempt timeout) run on the same thread.
     */
    static final class Driver {
        record Timer(long at, long seq, Runnable task) {
        }

        final InetSocketAddress address;
        final String host;
        final Selector selector;
        final PriorityQueue<Timer> timers = new PriorityQueue<>(
                Comparator.comparingLong(Timer::at).thenComparingLong(Timer::seq));
        final ByteBuffer readBuffer = ByteBuffer.allocateDirect(64 * 1024);
        long timerSeq;
        int pendingStarts;
        int openChains;
        int outstanding;
        final java.util.ArrayDeque<Chain> turns = new java.util.ArrayDeque<>();

        Driver(InetSocketAddress address, String host) throws IOException {
            this.address = address;
            this.host = host;
            this.selector = Selector.open();
        }

        void at(long nanoTime, Runnable task) {
            timers.add(new Timer(nanoTime, timerSeq++, task));
        }

        /** A client that starts at that moment (the loop runs until every one has its final answer). */
        void startAt(long nanoTime, Runnable task) {
            pendingStarts++;
            at(nanoTime, () -> {
                pendingStarts--;
                task.run();
            });
        }

        Chain start(Session s, String key) {
            Chain chain = new Chain(s, key);
            openChains++;
            send(chain);
            return chain;
        }

        /** Runs timers and sockets until every scheduled client has its final answer. */
        void runUntilIdle() throws IOException {
            while (openChains > 0 || pendingStarts > 0) {
                long now = System.nanoTime();
                while (!timers.isEmpty() && timers.peek().at() <= now) {
                    timers.poll().task().run();
                }
                long waitMs = timers.isEmpty() ? 100 : Math.max(1, (timers.peek().at() - System.nanoTime()) / 1_000_000);
                selector.select(Math.min(waitMs, 100));
                for (SelectionKey key : selector.selectedKeys()) {
                    Chain chain = (Chain) key.attachment();
                    try {
                        if (!key.isValid()) {
                            continue;
                        }
                        if (key.isConnectable() && chain.channel.finishConnect()) {
                            key.interestOps(SelectionKey.OP_WRITE);
                        }
                        if (key.isValid() && key.isWritable()) {
                            chain.channel.write(chain.request);
                            if (!chain.request.hasRemaining()) {
                                key.interestOps(SelectionKey.OP_READ);
                            }
                        }
                        if (key.isValid() && key.isReadable()) {
                            read(chain);
                        }
                    } catch (IOException e) {
                        failed(chain);
                    }
                }
                selector.selectedKeys().clear();
            }
        }

        /** Sends the chain's next attempt now, or once fewer than IN_FLIGHT requests are outstanding. */
        void send(Chain chain) {
            if (IN_FLIGHT > 0 && outstanding >= IN_FLIGHT) {
                turns.add(chain);
                return;
            }
            outstanding++;
            transmit(chain);
        }

        void transmit(Chain chain) {
            chain.attempts++;
            ATTEMPTS.incrementAndGet();
            chain.awaiting = true;
            chain.receivedLength = 0;
            chain.sentAt = System.nanoTime();
            byte[] body = sheet(chain.session).getBytes(StandardCharsets.UTF_8);
            String head = "POST /api/v1/submissions HTTP/1.1\r\nHost: " + host + "\r\nAuthorization: Bearer "
                    + chain.session.token() + "\r\nIdempotency-Key: " + chain.key
                    + "\r\nContent-Type: application/json\r\nContent-Length: " + body.length + "\r\n\r\n";
            byte[] headBytes = head.getBytes(StandardCharsets.US_ASCII);
            chain.request = ByteBuffer.allocate(headBytes.length + body.length).put(headBytes).put(body).flip();
            int attempt = chain.attempts;
            at(chain.sentAt + TimeUnit.SECONDS.toNanos(30), () -> {
                if (chain.awaiting && chain.attempts == attempt) {
                    failed(chain); // timed out
                }
            });
            try {
                if (chain.channel == null) {
                    chain.channel = SocketChannel.open();
                    chain.channel.configureBlocking(false);
                    chain.channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
                    boolean connected = chain.channel.connect(address);
                    chain.selectionKey = chain.channel.register(selector,
                            connected ? SelectionKey.OP_WRITE : SelectionKey.OP_CONNECT, chain);
                } else {
                    chain.selectionKey.interestOps(SelectionKey.OP_WRITE);
                }
            } catch (IOException e) {
                failed(chain);
            }
        }

        void read(Chain chain) throws IOException {
            int n;
            while ((n = chain.channel.read(readBuffer.clear())) > 0) {
                if (chain.receivedLength + n > chain.received.length) {
                    chain.received = Arrays.copyOf(chain.received, Math.max(chain.received.length * 2, chain.receivedLength + n));
                }
                readBuffer.flip().get(chain.received, chain.receivedLength, n);
                chain.receivedLength += n;
            }
            if (!chain.awaiting) {
                if (n < 0) {
                    close(chain); // the server closed an idle connection: the next attempt reconnects
                }
                return;
            }
            Response response = Response.parse(chain.received, chain.receivedLength, n < 0);
            if (response != null) {
                if (response.close() || n < 0) {
                    close(chain);
                }
                answered(chain, response.status(), response.retryAfter(), response.body());
            } else if (n < 0) {
                failed(chain);
            }
        }

        void failed(Chain chain) {
            close(chain);
            if (chain.awaiting) {
                answered(chain, 0, null, "");
            }
        }

        void close(Chain chain) {
            if (chain.channel != null) {
                try {
                    chain.channel.close();
                } catch (IOException ignored) {
                    // closing anyway
                }
                chain.channel = null;
                chain.selectionKey = null;
            }
        }

        void answered(Chain chain, int status, String retryAfter, String body) {
            chain.awaiting = false;
            outstanding--;
            Chain next = turns.poll();
            if (next != null) {
                outstanding++;
                transmit(next);
            }
            long now = System.nanoTime();
            ATTEMPT_NANOS.add(now - chain.sentAt);
            ATTEMPT_STATUS.computeIfAbsent(status, k -> new AtomicInteger()).incrementAndGet();
            if (status >= 400) {
                Matcher code = PROBLEM_CODE.matcher(body);
                REFUSAL_CODE.computeIfAbsent(status + " " + (code.find() ? code.group(1) : "?"), k -> new AtomicInteger())
                        .incrementAndGet();
            }
            boolean retry = status == 0 || status >= 500 || status == 409 || status == 429;
            if (!retry || now - chain.start > TimeUnit.MILLISECONDS.toNanos(GIVE_UP_MS)) {
                Matcher m = PAPER_ID.matcher(body);
                chain.outcome = new Outcome(chain.session.id(), status, m.find() ? m.group(1) : null, chain.start, now,
                        chain.attempts, body);
                close(chain);
                openChains--;
                return;
            }
            long exp = Math.min(BACKOFF_CAP_MS, 100L << Math.min(chain.attempts, 10));
            long delay = ThreadLocalRandom.current().nextLong(exp + 1); // full jitter
            if (retryAfter != null) {
                try {
                    delay = Long.parseLong(retryAfter.trim()) * 1000 + ThreadLocalRandom.current().nextLong(250);
                } catch (NumberFormatException ignored) {
                    // an HTTP date: keep the backoff
                }
            }
            at(now + TimeUnit.MILLISECONDS.toNanos(delay), () -> send(chain));
        }
    }

    /** An HTTP/1.1 response once it is complete (Content-Length, chunked, or until close); else null. */
    record Response(int status, String retryAfter, boolean close, String body) {
        static Response parse(byte[] bytes, int length, boolean closed) {
            int headEnd = indexOf(bytes, length, "\r\n\r\n".getBytes(StandardCharsets.US_ASCII), 0);
            if (headEnd < 0) {
                return null;
            }
            String[] lines = new String(bytes, 0, headEnd, StandardCharsets.ISO_8859_1).split("\r\n");
            int status = Integer.parseInt(lines[0].split(" ")[1]);
            long contentLength = -1;
            boolean chunked = false;
            boolean close = false;
            String retryAfter = null;
            for (int i = 1; i < lines.length; i++) {
                int colon = lines[i].indexOf(':');
                String name = lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT);
                String value = lines[i].substring(colon + 1).trim();
                switch (name) {
                    case "content-length" -> contentLength = Long.parseLong(value);
                    case "transfer-encoding" -> chunked = value.toLowerCase(Locale.ROOT).contains("chunked");
                    case "connection" -> close = value.equalsIgnoreCase("close");
                    case "retry-after" -> retryAfter = value;
                    default -> {
                    }
                }
            }
            int bodyStart = headEnd + 4;
            if (chunked) {
                StringBuilder body = new StringBuilder();
                int at = bodyStart;
                while (true) {
                    int lineEnd = indexOf(bytes, length, new byte[] {'\r', '\n'}, at);
                    if (lineEnd < 0) {
                        return null;
                    }
                    String sizeField = new String(bytes, at, lineEnd - at, StandardCharsets.US_ASCII);
                    int size = Integer.parseInt(sizeField.split(";")[0].trim(), 16);
                    if (lineEnd + 2 + size + 2 > length) {
                        return null;
                    }
                    if (size == 0) {
                        return new Response(status, retryAfter, close, body.toString());
                    }
                    body.append(new String(bytes, lineEnd + 2, size, StandardCharsets.UTF_8));
                    at = lineEnd + 2 + size + 2;
                }
            }
            if (contentLength >= 0) {
                return length - bodyStart >= contentLength
                        ? new Response(status, retryAfter, close, new String(bytes, bodyStart, (int) contentLength, StandardCharsets.UTF_8))
                        : null;
            }
            return closed ? new Response(status, retryAfter, true, new String(bytes, bodyStart, length - bodyStart, StandardCharsets.UTF_8))
                    : null;
        }

        static int indexOf(byte[] bytes, int length, byte[] needle, int from) {
            outer:
            for (int i = from; i <= length - needle.length; i++) {
                for (int j = 0; j < needle.length; j++) {
                    if (bytes[i + j] != needle[j]) {
                        continue outer;
                    }
                }
                return i;
            }
            return -1;
        }
    }

    /** This JVM's CPU time (every thread, its JIT and GC included): the driver's share of the machine. */
    static double cpuSeconds() {
        return ProcessHandle.current().info().totalCpuDuration().map(d -> d.toNanos() / 1e9).orElse(0.0);
    }

    static void write(Path report, List<Session> sessions, List<Outcome> outcomes, double window, long t0, double driverCpu)
            throws Exception {
        Map<String, Set<String>> papersBySession = new ConcurrentHashMap<>();
        Map<Integer, Integer> finals = new TreeMap<>();
        int wrongContent = 0;
        long first = Long.MAX_VALUE;
        long last = 0;
        long lastStart = 0;
        List<Long> latencies = new ArrayList<>();
        for (Outcome o : outcomes) {
            finals.merge(o.status(), 1, Integer::sum);
            first = Math.min(first, o.startNanos());
            lastStart = Math.max(lastStart, o.startNanos());
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
        // With a window, "drained in" cannot be shorter than the window: this says whether a backlog was left.
        out.append("| last final answer after the last chain's first request | ")
                .append(String.format("%.0f ms", (last - lastStart) / 1e6)).append(" |\n");
        out.append("| papers/s over that time | ").append(String.format("%.0f", papersBySession.size() / seconds)).append(" |\n");
        out.append("| chain latency p50 / p99 / max (incl. retries) | ").append(ms(latencies, 0.50)).append(" / ")
                .append(ms(latencies, 0.99)).append(" / ").append(ms(latencies, 1.0)).append(" |\n");
        out.append("| attempt latency p50 / p99 | ").append(ms(attempts, 0.50)).append(" / ").append(ms(attempts, 0.99)).append(" |\n");
        out.append("| final statuses | ").append(finals).append(" |\n");
        out.append("| attempt statuses (0 = network error) | ").append(new TreeMap<>(ATTEMPT_STATUS)).append(" |\n");
        out.append("| refusals by problem code | ").append(new TreeMap<>(REFUSAL_CODE)).append(" |\n");
        out.append("| driver CPU s during the storm (its JIT and GC included) | ").append(String.format("%.1f", driverCpu))
                .append(" |\n");
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
