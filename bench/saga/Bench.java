import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;

/**
 * The grading-saga benchmark's helpers (JDK only, run as a single-file program):
 *
 *   stubs PORT PAPER_KEY EXAM_ID      session-service and submission-service as grading-saga calls them:
 *                                     the exam with keys, signed papers (any id "<prefix>-<n>") and grading-started;
 *                                     POST /bench/prepare?prefix=P&count=N signs a round's papers beforehand
 *   publish HOST PORT DB STREAM EXAM_ID PREFIX COUNT
 *                                     XADDs COUNT paper events (pipelined RESP) and prints the first entry's id
 *   token OPERATOR_KEY                an operator token for the bench instance's /api/v1/archive/verify
 */
public class Bench {
    static final String EXAM_QUESTIONS = "[{\"id\":\"q1\",\"type\":\"SINGLE\",\"options\":[\"3\",\"4\"],\"points\":2,\"key\":\"4\"},"
            + "{\"id\":\"q2\",\"type\":\"MULTIPLE\",\"options\":[\"2\",\"4\",\"5\"],\"points\":3,\"key\":[\"2\",\"5\"]},"
            + "{\"id\":\"q3\",\"type\":\"TRUE_FALSE\",\"points\":1,\"key\":true},"
            + "{\"id\":\"q4\",\"type\":\"FILL\",\"points\":1,\"key\":[\"Paris\"]},"
            + "{\"id\":\"q5\",\"type\":\"NUMERIC\",\"points\":1,\"key\":3.14,\"tolerance\":0.005}]";

    public static void main(String[] args) throws Exception {
        switch (args[0]) {
            case "stubs" -> stubs(Integer.parseInt(args[1]), privateKey(args[2]), args[3]);
            case "publish" -> publish(args[1], Integer.parseInt(args[2]), args[3], args[4], args[5], args[6],
                    Integer.parseInt(args[7]));
            case "token" -> System.out.println(operatorToken(privateKey(args[1])));
            default -> throw new IllegalArgumentException("unknown mode " + args[0]);
        }
    }

    // --- stubs -------------------------------------------------------------------------------------

    static void stubs(int port, PrivateKey paperKey, String examId) throws IOException {
        // Without TCP_NODELAY the JDK server's separate header and body writes meet delayed ACKs: ~40 ms a request.
        System.setProperty("sun.net.httpserver.nodelay", "true");
        Map<String, byte[]> papers = new ConcurrentHashMap<>();
        byte[] exam = ("{\"examId\":\"" + examId + "\",\"keyRevision\":1,\"questions\":" + EXAM_QUESTIONS + "}")
                .getBytes(StandardCharsets.UTF_8);
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 1024);
        server.setExecutor(Executors.newFixedThreadPool(8));
        server.createContext("/internal/v1/exams/", exchange -> send(exchange, 200, exam));
        server.createContext("/internal/v1/papers/", exchange -> {
            String rest = exchange.getRequestURI().getPath().substring("/internal/v1/papers/".length());
            if (rest.endsWith("/grading-started")) {
                drain(exchange);
                exchange.sendResponseHeaders(204, -1);
                exchange.close();
                return;
            }
            send(exchange, 200, papers.computeIfAbsent(rest, id -> signedPaper(id, examId, paperKey)));
        });
        // Papers are signed before a round (POST /bench/prepare?prefix=P&count=N), so the stub's RSA signing is
        // not counted as grading time; a real submission-service signs once, at submission.
        server.createContext("/bench/prepare", exchange -> {
            Map<String, String> query = new TreeMap<>();
            for (String pair : exchange.getRequestURI().getQuery().split("&")) {
                String[] kv = pair.split("=", 2);
                query.put(kv[0], kv[1]);
            }
            int count = Integer.parseInt(query.get("count"));
            java.util.stream.IntStream.range(0, count).parallel().forEach(i -> {
                String id = query.get("prefix") + "-" + i;
                papers.computeIfAbsent(id, key -> signedPaper(key, examId, paperKey));
            });
            send(exchange, 200, ("{\"prepared\":" + count + "}").getBytes(StandardCharsets.UTF_8));
        });
        server.start();
        System.out.println("stubs on " + port);
    }

    /** A paper as submission-service signs it: digest over canonical JSON (sorted keys, no spaces), signature by the key's type. */
    static byte[] signedPaper(String paperId, String examId, PrivateKey key) {
        Map<String, Object> paper = new TreeMap<>();
        paper.put("paperId", paperId);
        paper.put("sessionId", "session-" + paperId);
        paper.put("examId", examId);
        paper.put("candidateId", "candidate-" + paperId);
        paper.put("submittedAt", "2026-12-01T09:00:00Z");
        paper.put("submittedBy", "CANDIDATE");
        Map<String, Object> answers = new TreeMap<>();
        answers.put("q1", answer("4"));
        answers.put("q2", answer(List.of("2", "4")));
        answers.put("q3", answer(Boolean.TRUE));
        answers.put("q4", answer(" paris"));
        answers.put("q5", answer(3));
        paper.put("answers", answers);
        paper.put("answerCount", 5);
        paper.put("lateChanges", 0);
        try {
            String digest = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(canonical(paper).getBytes(StandardCharsets.UTF_8)));
            // The paper key's type picks the algorithm, as in submission-service: RSA or Ed25519.
            Signature signer = Signature.getInstance(key.getAlgorithm().equals("RSA") ? "SHA256withRSA" : "Ed25519");
            signer.initSign(key);
            signer.update(digest.getBytes(StandardCharsets.UTF_8));
            paper.put("digest", digest);
            paper.put("signature", Base64.getEncoder().encodeToString(signer.sign()));
            return canonical(paper).getBytes(StandardCharsets.UTF_8);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    static Map<String, Object> answer(Object value) {
        Map<String, Object> answer = new TreeMap<>();
        answer.put("value", value);
        answer.put("version", 3);
        answer.put("epoch", 1);
        return answer;
    }

    /** RFC 8785 for what these papers hold: ASCII strings, small integers, booleans, lists, maps with sorted keys. */
    @SuppressWarnings("unchecked")
    static String canonical(Object value) {
        if (value instanceof Map<?, ?> map) {
            StringBuilder out = new StringBuilder("{");
            new TreeMap<>((Map<String, Object>) map).forEach((k, v) -> {
                if (out.length() > 1) {
                    out.append(',');
                }
                out.append(canonical(k)).append(':').append(canonical(v));
            });
            return out.append('}').toString();
        }
        if (value instanceof List<?> list) {
            List<String> items = new ArrayList<>();
            list.forEach(item -> items.add(canonical(item)));
            return "[" + String.join(",", items) + "]";
        }
        if (value instanceof String text) {
            return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
        }
        return String.valueOf(value);
    }

    static void send(HttpExchange exchange, int status, byte[] body) throws IOException {
        drain(exchange);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    static void drain(HttpExchange exchange) throws IOException {
        try (InputStream in = exchange.getRequestBody()) {
            in.readAllBytes();
        }
    }

    // --- publish -----------------------------------------------------------------------------------

    static void publish(String host, int port, String db, String stream, String examId, String prefix, int count)
            throws IOException {
        try (Socket socket = new Socket(host, port)) {
            OutputStream out = new BufferedOutputStream(socket.getOutputStream(), 1 << 16);
            InputStream in = new BufferedInputStream(socket.getInputStream(), 1 << 16);
            out.write(resp("SELECT", db));
            for (int i = 0; i < count; i++) {
                String paperId = prefix + "-" + i;
                out.write(resp("XADD", stream, "*", "paperId", paperId, "sessionId", "session-" + paperId, "examId", examId));
            }
            out.flush();
            readLine(in); // +OK
            String first = null;
            for (int i = 0; i < count; i++) {
                String reply = readLine(in);
                if (reply.startsWith("-")) {
                    throw new IOException("XADD failed: " + reply);
                }
                String id = readLine(in); // bulk string body after $<len>
                if (first == null) {
                    first = id;
                }
            }
            System.out.println(first);
        }
    }

    static byte[] resp(String... parts) {
        StringBuilder command = new StringBuilder("*").append(parts.length).append("\r\n");
        for (String part : parts) {
            command.append('$').append(part.getBytes(StandardCharsets.UTF_8).length).append("\r\n").append(part).append("\r\n");
        }
        return command.toString().getBytes(StandardCharsets.UTF_8);
    }

    static String readLine(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        int c;
        while ((c = in.read()) != -1) {
            if (c == '\r') {
                in.read();
                break;
            }
            line.append((char) c);
        }
        return line.toString();
    }

    // --- token -------------------------------------------------------------------------------------

    static String operatorToken(PrivateKey key) throws Exception {
        long now = System.currentTimeMillis() / 1000;
        Base64.Encoder b64 = Base64.getUrlEncoder().withoutPadding();
        String header = b64.encodeToString("{\"alg\":\"RS256\",\"typ\":\"JWT\"}".getBytes(StandardCharsets.UTF_8));
        String claims = b64.encodeToString(("{\"iss\":\"exam-operator-dev\",\"aud\":\"exam-operator\",\"sub\":\"bench\","
                + "\"groups\":[\"operator\"],\"iat\":" + now + ",\"exp\":" + (now + 3600) + "}").getBytes(StandardCharsets.UTF_8));
        Signature rsa = Signature.getInstance("SHA256withRSA");
        rsa.initSign(key);
        rsa.update((header + "." + claims).getBytes(StandardCharsets.US_ASCII));
        return header + "." + claims + "." + b64.encodeToString(rsa.sign());
    }

    static PrivateKey privateKey(String file) throws Exception {
        String pem = Files.readString(Path.of(file)).replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
        PKCS8EncodedKeySpec spec = new PKCS8EncodedKeySpec(Base64.getDecoder().decode(pem));
        try {
            return KeyFactory.getInstance("RSA").generatePrivate(spec);
        } catch (java.security.spec.InvalidKeySpecException e) {
            return KeyFactory.getInstance("Ed25519").generatePrivate(spec); // an Ed25519 paper key
        }
    }
}
