// The exam-start surge's driver (bench/start-surge/README.md). JDK only, run as a single-file program:
//   java Surge.java enroll <base-url> <candidates> <questions> <operator-private-key.pem> <out-file>
//       an exam open now with <questions> questions, <candidates> candidates enrolled through the
//       service's API; writes "<candidateId> <accessCode>" lines to <out-file>, the exam id to
//       <out-file>.exam
//   java Surge.java surge <base-url> <candidates-file> <from> <count> <in-flight> <report.md> <session-ids-out>
//       candidates <from>..<from+count-1> of the file start their session at once, <in-flight> at a
//       time; a 429 or 503 is retried after its Retry-After (a client honouring it), anything else
//       not 2xx counts as a failure and that candidate is not retried. Writes a markdown table.
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

public class Surge {
    // HTTP/1.1 as browsers behind the ingress speak it (the JDK client would offer h2c upgrades).
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();

    public static void main(String[] args) throws Exception {
        switch (args[0]) {
            case "enroll" -> enroll(args[1], Integer.parseInt(args[2]), Integer.parseInt(args[3]), Path.of(args[4]), Path.of(args[5]));
            case "surge" -> surge(args[1], Path.of(args[2]), Integer.parseInt(args[3]), Integer.parseInt(args[4]),
                    Integer.parseInt(args[5]), Path.of(args[6]), Path.of(args[7]));
            default -> throw new IllegalArgumentException(args[0]);
        }
    }

    static void enroll(String base, int candidates, int questions, Path operatorKey, Path out) throws Exception {
        long now = Instant.now().getEpochSecond();
        String operator = sign(privateKey(Files.readString(operatorKey)), "{\"iss\":\"exam-operator-dev\",\"aud\":\"exam-operator\","
                + "\"sub\":\"surge-bench\",\"upn\":\"surge-bench\",\"groups\":[\"operator\"],\"iat\":" + now + ",\"exp\":" + (now + 6 * 3600) + "}");
        Instant opens = Instant.now().minus(1, ChronoUnit.MINUTES).truncatedTo(ChronoUnit.SECONDS);
        StringBuilder qs = new StringBuilder();
        for (int i = 1; i <= questions; i++) {
            qs.append(i == 1 ? "" : ",");
            if (i % 2 == 0) {
                qs.append("{\"id\":\"q").append(i).append("\",\"type\":\"ESSAY\",\"prompt\":\"Discuss point ").append(i)
                        .append(" of the reading, with an example from your own work.\",\"points\":5}");
            } else {
                qs.append("{\"id\":\"q").append(i).append("\",\"type\":\"SINGLE\",\"prompt\":\"Which of these is true of item ")
                        .append(i).append("?\",\"options\":[\"the first\",\"the second\",\"the third\",\"the fourth\"],\"key\":\"the second\",\"points\":2}");
            }
        }
        String exam = "{\"title\":\"start-surge\",\"opensAt\":\"" + opens + "\",\"closesAt\":\"" + opens.plus(6, ChronoUnit.HOURS)
                + "\",\"durationSeconds\":7200,\"graceSeconds\":30,\"questions\":[" + qs + "]}";
        String examId = field(call(base + "/api/v1/exams", exam, operator, 201).body(), "examId");
        Files.writeString(Path.of(out + ".exam"), examId + "\n");
        List<String> lines = new ArrayList<>();
        String prefix = "surge-" + UUID.randomUUID().toString().substring(0, 8) + "-";
        for (int first = 0; first < candidates; first += 1000) {
            StringBuilder body = new StringBuilder("{\"candidates\":[");
            for (int i = first; i < Math.min(candidates, first + 1000); i++) {
                body.append(i == first ? "" : ",").append("{\"candidateId\":\"").append(prefix).append(i).append("\"}");
            }
            String reply = call(base + "/api/v1/exams/" + examId + "/candidates", body.append("]}").toString(), operator, 201).body();
            Matcher m = Pattern.compile("\"candidateId\"\\s*:\\s*\"([^\"]+)\"[^}]*?\"accessCode\"\\s*:\\s*\"([^\"]+)\"").matcher(reply);
            while (m.find()) {
                lines.add(m.group(1) + " " + m.group(2));
            }
        }
        if (lines.size() != candidates) {
            throw new IllegalStateException("enrolled " + lines.size() + " of " + candidates);
        }
        Files.write(out, lines);
        System.out.println("enrolled " + lines.size() + " candidates in exam " + examId);
    }

    static void surge(String base, Path file, int from, int count, int inFlight, Path report, Path idsOut) throws Exception {
        String examId = Files.readString(Path.of(file + ".exam")).trim();
        List<String> all = Files.readAllLines(file);
        ConcurrentLinkedQueue<String[]> queue = new ConcurrentLinkedQueue<>();
        for (String line : all.subList(from, from + count)) {
            queue.add(line.split(" "));
        }
        long[] served = new long[count * 2]; // nanoseconds of each 2xx answer
        AtomicInteger servedCount = new AtomicInteger();
        List<Long> shedNanos = java.util.Collections.synchronizedList(new ArrayList<>());
        AtomicInteger started = new AtomicInteger();
        AtomicInteger resumed = new AtomicInteger();
        AtomicInteger shed = new AtomicInteger();
        AtomicInteger fivexx = new AtomicInteger();
        AtomicInteger otherFailures = new AtomicInteger();
        AtomicInteger ioErrors = new AtomicInteger();
        AtomicLong retryAfterSum = new AtomicLong();
        AtomicInteger retryAfterMax = new AtomicInteger();
        AtomicLong lastStartNanos = new AtomicLong();
        ConcurrentLinkedQueue<String> sessionIds = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        CountDownLatch done = new CountDownLatch(inFlight);
        long cpu0 = ManagementFactory.getPlatformMXBean(com.sun.management.OperatingSystemMXBean.class).getProcessCpuTime();
        long t0 = System.nanoTime();
        for (int w = 0; w < inFlight; w++) {
            new Thread(() -> {
                Conn conn = new Conn(URI.create(base));
                try {
                    String[] candidate;
                    while ((candidate = queue.poll()) != null) {
                        String body = "{\"examId\":\"" + examId + "\",\"candidateId\":\"" + candidate[0] + "\",\"accessCode\":\"" + candidate[1] + "\"}";
                        for (int attempt = 0;; attempt++) {
                            long s = System.nanoTime();
                            Conn.Reply reply;
                            try {
                                reply = conn.post("/api/v1/sessions", body);
                            } catch (Exception e) {
                                conn.close();
                                ioErrors.incrementAndGet();
                                if (attempt < 5) {
                                    Thread.sleep(1000);
                                    continue;
                                }
                                failures.add(candidate[0] + ": " + e);
                                break;
                            }
                            long took = System.nanoTime() - s;
                            int status = reply.status();
                            if (status == 201 || status == 200) {
                                served[servedCount.getAndIncrement()] = took;
                                (status == 201 ? started : resumed).incrementAndGet();
                                sessionIds.add(field(reply.body(), "sessionId"));
                                lastStartNanos.accumulateAndGet(System.nanoTime() - t0, Math::max);
                                break;
                            }
                            if (status == 429 || status == 503) {
                                if (status == 429) {
                                    shed.incrementAndGet();
                                    shedNanos.add(took);
                                } else {
                                    fivexx.incrementAndGet();
                                }
                                int after = reply.retryAfter() > 0 ? reply.retryAfter() : 1;
                                retryAfterSum.addAndGet(after);
                                retryAfterMax.accumulateAndGet(after, Math::max);
                                Thread.sleep(after * 1000L);
                                continue;
                            }
                            if (status >= 500) {
                                fivexx.incrementAndGet();
                            } else {
                                otherFailures.incrementAndGet();
                            }
                            failures.add(candidate[0] + ": " + status + " " + reply.body());
                            break;
                        }
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } finally {
                    conn.close();
                    done.countDown();
                }
            }).start();
        }
        done.await();
        double seconds = (System.nanoTime() - t0) / 1e9;
        double lastStart = lastStartNanos.get() / 1e9;
        long cpuMs = (ManagementFactory.getPlatformMXBean(com.sun.management.OperatingSystemMXBean.class).getProcessCpuTime() - cpu0) / 1_000_000;
        long[] lat = Arrays.copyOf(served, servedCount.get());
        Arrays.sort(lat);
        long[] shedLat = shedNanos.stream().mapToLong(Long::longValue).sorted().toArray();
        int ok = started.get() + resumed.get();
        StringBuilder md = new StringBuilder();
        md.append("| measure | value |\n|---|---|\n");
        md.append("| exam | ").append(examId).append(" |\n");
        md.append("| candidates / in flight | ").append(count).append(" / ").append(inFlight).append(" |\n");
        md.append("| started (201) / resumed (200) / not started | ").append(started.get()).append(" / ").append(resumed.get())
                .append(" / ").append(count - ok).append(" |\n");
        md.append(String.format("| all started after (s) | %.2f |%n", lastStart));
        md.append(String.format("| **starts/s** (started ÷ time to the last start) | **%.0f** |%n", ok / Math.max(lastStart, 1e-9)));
        md.append(String.format("| served start p50 / p99 / max (ms) | %s / %s / %s |%n", ms(pct(lat, 0.50)), ms(pct(lat, 0.99)),
                ms(lat.length == 0 ? 0 : lat[lat.length - 1])));
        md.append(String.format("| 429 answers / their p50 / p99 (ms) | %d / %s / %s |%n", shed.get(), ms(pct(shedLat, 0.50)), ms(pct(shedLat, 0.99))));
        md.append(String.format("| Retry-After mean / max (s) | %s / %d |%n",
                shed.get() + fivexx.get() == 0 ? "—" : String.format("%.1f", retryAfterSum.get() / (double) (shed.get() + fivexx.get())),
                retryAfterMax.get()));
        md.append("| 5xx / other failures / connection errors | **").append(fivexx.get()).append("** / ").append(otherFailures.get())
                .append(" / ").append(ioErrors.get()).append(" |\n");
        md.append(String.format("| driver CPU s (this JVM) | %.1f |%n", cpuMs / 1000.0));
        Files.writeString(report, md.toString());
        Files.write(idsOut, sessionIds);
        failures.stream().limit(5).forEach(f -> System.err.println("failed: " + f));
        System.out.print(md);
        System.out.printf("driver-cpu-ms %d%nseconds %.2f%n", cpuMs, seconds);
    }

    /**
     * One keep-alive HTTP/1.1 connection on a blocking socket, as one browser tab holds it: the
     * JDK's HttpClient cost the driver 1.2 ms of CPU per start, as much as the service it drove.
     */
    static final class Conn {
        record Reply(int status, int retryAfter, String body) {
        }

        private final String host;
        private final int port;
        private java.net.Socket socket;
        private java.io.BufferedInputStream in;
        private java.io.OutputStream out;

        Conn(URI base) {
            host = base.getHost();
            port = base.getPort();
        }

        Reply post(String path, String body) throws java.io.IOException {
            if (socket == null) {
                socket = new java.net.Socket(host, port);
                socket.setTcpNoDelay(true);
                socket.setSoTimeout(60_000);
                in = new java.io.BufferedInputStream(socket.getInputStream(), 16384);
                out = socket.getOutputStream();
            }
            byte[] payload = body.getBytes(StandardCharsets.UTF_8);
            out.write(("POST " + path + " HTTP/1.1\r\nHost: " + host + ":" + port
                    + "\r\nContent-Type: application/json\r\nAccept: application/json\r\nContent-Length: " + payload.length
                    + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(payload);
            out.flush();
            String statusLine = line();
            int status = Integer.parseInt(statusLine.split(" ")[1]);
            int length = -1;
            int retryAfter = 0;
            boolean chunked = false;
            boolean closing = false;
            for (String header; !(header = line()).isEmpty();) {
                int colon = header.indexOf(':');
                String name = header.substring(0, colon).trim().toLowerCase(java.util.Locale.ROOT);
                String value = header.substring(colon + 1).trim();
                switch (name) {
                    case "content-length" -> length = Integer.parseInt(value);
                    case "retry-after" -> retryAfter = Integer.parseInt(value);
                    case "transfer-encoding" -> chunked = value.toLowerCase(java.util.Locale.ROOT).contains("chunked");
                    case "connection" -> closing = value.equalsIgnoreCase("close");
                    default -> {
                    }
                }
            }
            java.io.ByteArrayOutputStream content = new java.io.ByteArrayOutputStream(Math.max(length, 256));
            if (chunked) {
                for (int size; (size = Integer.parseInt(line().split(";")[0].trim(), 16)) > 0;) {
                    content.write(in.readNBytes(size));
                    line();
                }
                while (!line().isEmpty()) {
                    // trailers
                }
            } else if (length >= 0) {
                content.write(in.readNBytes(length));
            }
            if (closing) {
                close();
            }
            return new Reply(status, retryAfter, content.toString(StandardCharsets.UTF_8));
        }

        private String line() throws java.io.IOException {
            StringBuilder line = new StringBuilder();
            for (int c; (c = in.read()) != '\n';) {
                if (c < 0) {
                    throw new java.io.EOFException("connection closed");
                }
                if (c != '\r') {
                    line.append((char) c);
                }
            }
            return line.toString();
        }

        void close() {
            try {
                if (socket != null) {
                    socket.close();
                }
            } catch (java.io.IOException e) {
                // closing anyway
            }
            socket = null;
        }
    }

    private static String ms(long nanos) {
        return String.format("%.0f", nanos / 1e6);
    }

    private static long pct(long[] sorted, double p) {
        return sorted.length == 0 ? 0 : sorted[Math.min(sorted.length - 1, (int) Math.ceil(p * sorted.length) - 1)];
    }

    private static HttpResponse<String> call(String url, String body, String token, int expected) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).header("Content-Type", "application/json")
                .timeout(Duration.ofSeconds(60)).POST(HttpRequest.BodyPublishers.ofString(body));
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        HttpResponse<String> reply = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
        if (expected > 0 && reply.statusCode() != expected) {
            throw new IllegalStateException("POST " + url + " -> " + reply.statusCode() + " " + reply.body());
        }
        return reply;
    }

    private static String field(String json, String name) {
        Matcher m = Pattern.compile("\"" + name + "\"\\s*:\\s*\"([^\"]+)\"").matcher(json);
        if (!m.find()) {
            throw new IllegalStateException("no " + name + " in " + json);
        }
        return m.group(1);
    }

    private static String sign(PrivateKey key, String claims) throws Exception {
        Base64.Encoder b64 = Base64.getUrlEncoder().withoutPadding();
        // no kid: the service under bench verifies with a key set of one key, which takes a token without one
        String input = b64.encodeToString("{\"alg\":\"RS256\",\"typ\":\"JWT\"}".getBytes(StandardCharsets.UTF_8))
                + "." + b64.encodeToString(claims.getBytes(StandardCharsets.UTF_8));
        Signature signer = Signature.getInstance("SHA256withRSA");
        signer.initSign(key);
        signer.update(input.getBytes(StandardCharsets.US_ASCII));
        return input + "." + b64.encodeToString(signer.sign());
    }

    private static PrivateKey privateKey(String pem) throws Exception {
        String body = pem.replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
        return KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(body)));
    }
}
