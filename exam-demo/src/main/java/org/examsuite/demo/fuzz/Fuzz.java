package org.examsuite.demo.fuzz;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PrivateKey;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;
import java.util.regex.Pattern;
import org.examsuite.demo.setup.ExamSetup;

/**
 * {@code ./exam fuzz}: hostile requests in volume against the running suite (docs/fuzzing.md). The operations come
 * from every service's {@code /q/openapi}; the mutators ({@link Mutators}, {@link Tokens}) make them malformed,
 * oversized or forged. A main session gets the garbage and the valid requests, a twin session only the valid ones;
 * after every batch the oracles run. Then stateful flows (start, autosave, reload, takeover, submit, replay,
 * force-submit with garbage between) are checked against the model. One seed drives every choice.
 */
public final class Fuzz {
    static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final Pattern LEAK = Pattern.compile(
            "(?i)(\\bat [a-z]+\\.[a-z0-9_.$]+\\(|Exception\\b|Caused by|\\bSQL|select .* from|insert into|org\\.postgresql|"
                    + "jdbc:|redis://|io\\.vertx|io\\.quarkus|org\\.hibernate|com\\.fasterxml|\\.java:\\d+|NullPointer|"
                    + "stack ?trace)");
    static final String USAGE = """
            usage: ./exam fuzz [--requests N] [--seed S] [--batch N] [--flows N] [--json FILE]
              --requests N   hostile requests in the campaign (default 5000)
              --seed S       the campaign's seed (default: random, printed); the same seed replays the same choices
              --batch N      requests between oracle checks (default 250)
              --flows N      stateful flows with garbage between steps (default 12)
              --json FILE    also write the counts and findings as JSON
              --strict       count the HTTP codec's bare 400/414/431 as findings too (they are reported either way)""";

    private final Options options;
    private final RawHttp http;
    private final Random random;
    private final Findings findings = new Findings();
    private final Map<String, Integer> families = new TreeMap<>();
    private final Map<Integer, Integer> statuses = new TreeMap<>();
    private final Map<String, Map<Integer, Integer>> byService = new TreeMap<>();
    private final Map<String, Integer> codec = new TreeMap<>();
    private final String hostName;
    private int sent;

    // The campaign's live setting.
    private String examMain;
    private String examSpare;
    private Live main;
    private Live twin;
    /** Valid requests refused by a per-minute limit (429 RATE_LIMITED), printed at the end. */
    private int rateLimited;
    private Live victim;
    private final Map<String, String> codes = new LinkedHashMap<>();
    private List<Tokens.Forged> forged = List.of();
    private final List<Operation> operations = new ArrayList<>();
    private final Map<String, Stamp> model = new TreeMap<>();
    private long version = 1;
    private boolean mainSubmitted;
    private String mainPaper;
    private int eventSeq;

    record Options(String host, int sessionPort, int answerPort, int submissionPort, int gradingPort, String operatorToken,
            Path keys, int requests, long seed, int batch, int flows, Path json, boolean strict) {
    }

    record Operation(int port, String method, String path, boolean body) {
        String label() {
            return method + " " + path;
        }
    }

    /** A session in the campaign: its id, candidate and current token. */
    static final class Live {
        final String candidateId;
        String sessionId;
        String token;
        long epoch;

        Live(String candidateId) {
            this.candidateId = candidateId;
        }
    }

    record Stamp(long epoch, long version, JsonNode value) {
        boolean newerThan(Stamp other) {
            return other == null || epoch > other.epoch || (epoch == other.epoch && version > other.version);
        }
    }

    Fuzz(Options options) {
        this.options = options;
        this.http = new RawHttp(options.host(), 20_000);
        this.random = new Random(options.seed());
        String name;
        try {
            name = InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            name = "";
        }
        this.hostName = name.length() >= 4 && !name.equals("localhost") ? name : null;
    }

    public static void main(String[] args) {
        int code;
        try {
            Options options = parse(args, System.getenv());
            code = new Fuzz(options).run();
        } catch (IllegalArgumentException e) {
            System.err.println("exam fuzz: " + e.getMessage());
            System.err.println(USAGE);
            code = 2;
        } catch (Exception e) {
            System.err.println("exam fuzz: " + e);
            code = 1;
        }
        System.exit(code);
    }

    static Options parse(String[] args, Map<String, String> env) {
        String token = env.get("EXAM_FUZZ_OPERATOR_TOKEN");
        Path keys = env.containsKey("EXAM_FUZZ_KEYS") ? Path.of(env.get("EXAM_FUZZ_KEYS")) : null;
        int requests = 5000, batch = 250, flows = 12;
        long seed = new Random().nextLong() & 0xFFFFFFFFFFFFL;
        Path json = null;
        boolean strict = false;
        String host = "127.0.0.1";
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (arg.equals("-h") || arg.equals("--help")) {
                throw new IllegalArgumentException("help");
            }
            if (arg.equals("--strict")) {
                strict = true;
                continue;
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException("missing value for " + arg);
            }
            String value = args[++i];
            switch (arg) {
                case "--requests" -> requests = Integer.parseInt(value);
                case "--seed" -> seed = Long.parseLong(value);
                case "--batch" -> batch = Integer.parseInt(value);
                case "--flows" -> flows = Integer.parseInt(value);
                case "--json" -> json = Path.of(value);
                case "--operator-token" -> token = value;
                case "--keys" -> keys = Path.of(value);
                case "--host" -> host = value;
                default -> throw new IllegalArgumentException("unknown option " + arg);
            }
        }
        if (token == null || token.isBlank()) {
            throw new IllegalArgumentException("an operator token is needed (--operator-token or EXAM_FUZZ_OPERATOR_TOKEN)");
        }
        if (requests < 1 || batch < 1 || flows < 0) {
            throw new IllegalArgumentException("--requests and --batch must be positive, --flows not negative");
        }
        return new Options(host, 8081, 8082, 8083, 8084, token, keys, requests, seed, batch, flows, json, strict);
    }

    int run() throws Exception {
        long started = System.nanoTime();
        System.out.printf(Locale.ROOT, "exam fuzz: seed %d, %d requests in batches of %d, %d flows (replay: ./exam fuzz --seed %d --requests %d)%n",
                options.seed(), options.requests(), options.batch(), options.flows(), options.seed(), options.requests());
        List<String> notReady = notReady();
        if (!notReady.isEmpty()) {
            System.err.println("exam fuzz: not ready: " + String.join(", ", notReady) + " (start the suite with ./exam up)");
            return 3;
        }
        setUp();
        readOpenApi();
        System.out.printf(Locale.ROOT, "exam fuzz: %d operations from /q/openapi, %d forged token kinds%n", operations.size(), forged.size());
        validAutosave(allQuestions());
        int remaining = options.requests();
        int batchNo = 0;
        while (remaining > 0) {
            int size = Math.min(options.batch(), remaining);
            // The paper is made two thirds of the way in, so that the rest hits a submitted session.
            if (!mainSubmitted && remaining <= options.requests() / 3) {
                submitBoth();
            }
            for (int i = 0; i < size; i++) {
                if (random.nextInt(25) == 0) {
                    validStep();
                }
                hostile();
            }
            remaining -= size;
            batchNo++;
            checkBatch(batchNo);
        }
        if (!mainSubmitted) {
            submitBoth();
            checkBatch(batchNo + 1);
        }
        for (int i = 0; i < options.flows(); i++) {
            new Flow(this, i + 1).run();
        }
        checkPersisted();
        checkArchive();
        new HeldBodies(this).run(twin);
        long seconds = Duration.ofNanos(System.nanoTime() - started).toSeconds();
        report(seconds);
        return findings.isEmpty() ? 0 : 1;
    }

    // ---- setup ----------------------------------------------------------------------------------------------------

    private void setUp() throws Exception {
        examMain = createExam("Fuzz " + Instant.now());
        examSpare = createExam("Fuzz spare " + Instant.now());
        List<String> candidates = new ArrayList<>(List.of("fz-main", "fz-twin"));
        for (int i = 1; i <= options.flows(); i++) {
            candidates.add("fz-flow-" + i);
        }
        enroll(examMain, candidates);
        enroll(examSpare, List.of("fz-victim"));
        main = start(examMain, new Live("fz-main"));
        twin = start(examMain, new Live("fz-twin"));
        victim = start(examSpare, new Live("fz-victim"));
        PrivateKey key = null;
        if (options.keys() != null && Files.exists(options.keys().resolve("candidate.private.pem"))) {
            key = Tokens.readPrivateKey(options.keys().resolve("candidate.private.pem"));
        }
        forged = Tokens.forge(main.token, key);
        System.out.printf(Locale.ROOT, "exam fuzz: exam %s, main session %s, twin %s%n", examMain, main.sessionId, twin.sessionId);
    }

    private String createExam(String title) {
        Instant now = Instant.now();
        ObjectNode body = NODES.objectNode();
        body.put("title", title);
        body.put("opensAt", now.minusSeconds(60).toString());
        body.put("closesAt", now.plus(Duration.ofHours(3)).toString());
        body.put("durationSeconds", 7200);
        body.put("graceSeconds", 30);
        body.set("questions", Mutators.JSON.valueToTree(ExamSetup.questionsWithKeys()));
        RawHttp.Response r = json(options.sessionPort(), "POST", "/api/v1/exams", options.operatorToken(), body,
                List.<String[]>of(new String[] {"Idempotency-Key", UUID.randomUUID().toString()}));
        return required(r, "examId", "creating an exam");
    }

    private void enroll(String examId, List<String> candidateIds) {
        ObjectNode body = NODES.objectNode();
        ArrayNode list = body.putArray("candidates");
        candidateIds.forEach(id -> list.addObject().put("candidateId", id));
        RawHttp.Response r = json(options.sessionPort(), "POST", "/api/v1/exams/" + examId + "/candidates",
                options.operatorToken(), body, List.of());
        JsonNode parsed = parse(r.body());
        if (r.status() != 201 || parsed == null) {
            throw new IllegalStateException("enrolling failed: " + r.status() + " " + r.text());
        }
        parsed.path("candidates").forEach(c -> codes.put(examId + "/" + c.path("candidateId").asText(), c.path("accessCode").asText()));
    }

    Live start(String examId, Live live) {
        ObjectNode body = NODES.objectNode().put("examId", examId).put("candidateId", live.candidateId)
                .put("accessCode", codes.get(examId + "/" + live.candidateId));
        RawHttp.Response r = json(options.sessionPort(), "POST", "/api/v1/sessions", null, body, List.of());
        JsonNode parsed = parse(r.body());
        if ((r.status() != 201 && r.status() != 200) || parsed == null) {
            throw new IllegalStateException("starting a session failed: " + r.status() + " " + r.text());
        }
        live.sessionId = parsed.path("sessionId").asText();
        live.token = parsed.path("token").asText();
        live.epoch = parsed.path("deviceEpoch").asLong();
        return live;
    }

    private void readOpenApi() {
        for (int port : ports()) {
            RawHttp.Response r = send("openapi", port, RawHttp.build("GET", "/q/openapi?format=json",
                    List.<String[]>of(new String[] {"Accept", "application/json"}), null), false);
            JsonNode doc = parse(r.body());
            if (doc == null) {
                throw new IllegalStateException("no OpenAPI document on port " + port + ": " + r.status());
            }
            Iterator<Map.Entry<String, JsonNode>> paths = doc.path("paths").fields();
            while (paths.hasNext()) {
                Map.Entry<String, JsonNode> path = paths.next();
                Iterator<Map.Entry<String, JsonNode>> methods = path.getValue().fields();
                while (methods.hasNext()) {
                    Map.Entry<String, JsonNode> method = methods.next();
                    String verb = method.getKey().toUpperCase(Locale.ROOT);
                    if (List.of("GET", "POST", "PUT", "PATCH", "DELETE").contains(verb)) {
                        operations.add(new Operation(port, verb, path.getKey(), method.getValue().has("requestBody")));
                    }
                }
            }
        }
        if (operations.isEmpty()) {
            throw new IllegalStateException("the OpenAPI documents list no operations");
        }
    }

    // ---- the hostile requests -------------------------------------------------------------------------------------

    /** One generated request: an operation, a token, then one or two mutations of its path, body, headers or method. */
    private void hostile() {
        Operation op = operations.get(random.nextInt(operations.size()));
        String tokenKind;
        String token;
        int pick = random.nextInt(100);
        if (pick < 45) {
            tokenKind = "candidate";
            token = main.token;
        } else if (pick < 65) {
            tokenKind = "operator";
            token = options.operatorToken();
        } else if (pick < 70) {
            tokenKind = "other-session";
            token = twin.token;
        } else if (pick < 90) {
            Tokens.Forged f = forged.get(random.nextInt(forged.size()));
            tokenKind = "forged:" + f.kind();
            token = f.token();
        } else {
            tokenKind = "none";
            token = null;
        }
        boolean operatorWrite = "operator".equals(tokenKind) && !op.method().equals("GET");
        String path = fillPath(op.path(), operatorWrite);
        String method = op.method();
        JsonNode valid = validBody(op, path);
        byte[] body = valid == null ? null : Mutators.bytes(valid);
        List<String[]> headers = new ArrayList<>();
        if (token != null) {
            headers.add(new String[] {"Authorization", "Bearer " + token});
        }
        if (op.path().equals("/api/v1/submissions") || op.path().endsWith("/extend") || op.path().equals("/api/v1/exams")) {
            headers.add(new String[] {"Idempotency-Key", "fz-" + random.nextInt(1_000_000)});
        }
        if (body != null) {
            headers.add(new String[] {"Content-Type", "application/json"});
        }
        // What this request may do if the service took it: garbage aimed at the main session's draft or paper must
        // be refused (or be stale), everything else lands on sessions and exams that nothing compares.
        boolean mainWrite = "candidate".equals(tokenKind) && !method.equals("GET")
                && (op.path().startsWith("/api/v1/answers") || op.path().equals("/api/v1/submissions"));
        // The twin's token reaching the twin's own session is a valid request, not a cross-session one.
        boolean mustReject = !"candidate".equals(tokenKind) && !"operator".equals(tokenKind)
                && !("other-session".equals(tokenKind) && path.contains(twin.sessionId));
        String family;
        String target = path;
        byte[] framed = null;
        int mutation = random.nextInt(100);
        if (mutation < 40 && body != null || mainWrite && !mainSubmitted && op.path().equals("/api/v1/submissions")) {
            String kind = Mutators.BODY_KINDS[random.nextInt(Mutators.BODY_KINDS.length)];
            if (mainWrite && !mainSubmitted && op.path().equals("/api/v1/submissions")) {
                // Before the paper, a submission with the main token is sent only when it must fail.
                String[] refused = {"truncated", "not-json", "invalid-utf8", "deep-nesting", "huge-string", "nan-bare"};
                kind = refused[random.nextInt(refused.length)];
            }
            Mutators.Body mutated = Mutators.body(valid == null ? NODES.objectNode() : valid, kind, random);
            body = mutated.bytes();
            mustReject |= mutated.mustReject();
            family = "body:" + kind;
            if (body != null && !headers.stream().anyMatch(h -> h[0].equals("Content-Type"))) {
                headers.add(new String[] {"Content-Type", "application/json"});
            }
        } else if (mutation < 55) {
            String value = Mutators.PATH_VALUES[random.nextInt(Mutators.PATH_VALUES.length)];
            // quoteReplacement: a value's backslashes are sent as they are, not read as regex escapes.
            target = op.path().contains("{") ? op.path().replaceFirst("\\{[^}]+}", java.util.regex.Matcher.quoteReplacement(value))
                    .replaceAll("\\{[^}]+}", "x")
                    : path + "/" + value;
            family = "path";
            // An id-shaped value (docs/api.md §4, limits) may name nothing and still be taken (a release is not looked up).
            // Matrix parameters (";b=c") are URI syntax that JAX-RS strips from the segment.
            mustReject |= !value.matches("[A-Za-z0-9._@:-]{1,64}") && !value.contains(";");
        } else if (mutation < 62) {
            target = path + Mutators.QUERIES[random.nextInt(Mutators.QUERIES.length)];
            family = "query";
        } else if (mutation < 70) {
            method = Mutators.METHODS[random.nextInt(Mutators.METHODS.length)];
            family = "method:" + (method.length() > 20 ? "long" : method);
            if (mainWrite || (method.equals("POST") || method.equals("PATCH") || method.equals("PUT"))
                    && (op.path().contains("answers") || op.path().contains("submissions"))) {
                method = "DELETE"; // never turn a read into a write on the main session
            }
        } else if (mutation < 78 && body != null) {
            String type = Mutators.CONTENT_TYPES[random.nextInt(Mutators.CONTENT_TYPES.length)];
            headers.removeIf(h -> h[0].equals("Content-Type"));
            if (!type.isEmpty()) {
                headers.add(new String[] {"Content-Type", type});
            }
            family = "content-type";
            // A list, a wildcard or a JSON subtype may fairly be read as JSON; these may not.
            mustReject |= List.of("text/plain", "application/xml", "application/x-www-form-urlencoded",
                    "multipart/form-data; boundary=x", "application/jsonx").contains(type); // none at all: JAX-RS reads it as JSON
        } else {
            String kind = Mutators.HEADER_KINDS[random.nextInt(Mutators.HEADER_KINDS.length)];
            family = "header:" + kind;
            if (kind.equals("many-idempotency-keys") && mainWrite && !mainSubmitted) {
                kind = "forged-traceparent"; // which key counts is not for the fuzzer to decide on the main paper
                family = "header:" + kind;
            }
            headers = Mutators.headers(kind, random, headers);
            mustReject |= kind.equals("odd-authorization") || kind.equals("huge-header") || kind.equals("smuggling-cl-te")
                    || kind.equals("two-content-lengths") || kind.equals("bad-content-length") || kind.equals("header-nul");
            framed = frame(kind, method, target, headers, body);
        }
        if (mainWrite && !mainSubmitted && !mustReject && op.path().equals("/api/v1/submissions")) {
            mustReject = true;
        }
        byte[] bytes = framed != null ? framed : RawHttp.build(method, target, headers, body);
        RawHttp.Response r = send(family, op.port(), bytes, method.equalsIgnoreCase("HEAD"));
        String label = family + " " + method + " " + op.path() + " [" + tokenKind + "]";
        check(label, bytes, r, method.equalsIgnoreCase("HEAD"));
        // OPTIONS and HEAD do nothing: their 200 (Allow, or the headers of a GET) is no acceptance.
        boolean inert = method.equals("OPTIONS") || method.equals("HEAD");
        if (mustReject && !inert && r.status() >= 200 && r.status() < 300
                && !(mainSubmitted && op.path().equals("/api/v1/submissions"))) {
            findings.add("accepted-garbage", r.status() + " " + family + " " + method + " " + op.path() + " [" + tokenKind + "]",
                    bytes, r);
        }
    }

    private byte[] frame(String kind, String method, String target, List<String[]> headers, byte[] body) {
        byte[] payload = body == null ? new byte[0] : body;
        List<String[]> h = new ArrayList<>(headers);
        switch (kind) {
            case "chunked" -> {
                h.add(new String[] {"Transfer-Encoding", "chunked"});
                String chunk = Integer.toHexString(payload.length) + "\r\n";
                byte[] chunked = Mutators.concat(Mutators.concat(chunk.getBytes(StandardCharsets.US_ASCII), payload),
                        "\r\n0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                return RawHttp.build(method, target, h, chunked);
            }
            case "smuggling-cl-te" -> {
                h.add(new String[] {"Content-Length", String.valueOf(payload.length + 5)});
                h.add(new String[] {"Transfer-Encoding", "chunked"});
                return RawHttp.build(method, target, h, Mutators.concat("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII), payload));
            }
            case "two-content-lengths" -> {
                h.add(new String[] {"Content-Length", String.valueOf(payload.length)});
                h.add(new String[] {"Content-Length", String.valueOf(payload.length + 1)});
                return RawHttp.build(method, target, h, payload);
            }
            case "bad-content-length" -> {
                h.add(new String[] {"Content-Length", new String[] {"-1", "abc", "99999999999999999999", "1e3"}[random.nextInt(4)]});
                return RawHttp.build(method, target, h, payload);
            }
            default -> {
                return null;
            }
        }
    }

    private String fillPath(String template, boolean operatorWrite) {
        String path = template;
        path = path.replace("{sessionId}", operatorWrite ? victim.sessionId : random.nextInt(4) == 0 ? twin.sessionId : main.sessionId);
        path = path.replace("{examId}", operatorWrite || random.nextBoolean() ? examSpare : examMain);
        path = path.replace("{paperId}", mainPaper != null && random.nextBoolean() ? mainPaper : UUID.randomUUID().toString());
        return path.replaceAll("\\{[^}]+}", UUID.randomUUID().toString());
    }

    /** A body that the operation would accept (before mutation), or null for one without a body. */
    private JsonNode validBody(Operation op, String path) {
        if (!op.body() && !op.method().equals("PATCH")) {
            return null;
        }
        String p = op.path();
        if (p.startsWith("/api/v1/answers")) {
            ObjectNode body = NODES.objectNode().put("version", 1); // stale: the main draft is past version 1 everywhere
            body.putArray("changes").addObject().put("questionId", "q0" + (1 + random.nextInt(9))).put("value", "4");
            return body;
        }
        if (p.equals("/api/v1/submissions")) {
            ObjectNode body = NODES.objectNode().put("sessionId", main.sessionId);
            body.putObject("answers").putObject("q01").put("value", "4").put("version", 1);
            return body;
        }
        if (p.equals("/api/v1/sessions")) {
            return NODES.objectNode().put("examId", examSpare).put("candidateId", "fz-nobody").put("accessCode", "ABCD-EFGH-JKMN");
        }
        if (p.endsWith("/events")) {
            ObjectNode body = NODES.objectNode();
            body.putArray("events").addObject().put("eventId", "fz-" + random.nextInt(1_000_000)).put("type", "FOCUS_LOST")
                    .put("at", Instant.now().toString());
            return body;
        }
        if (p.endsWith("/candidates")) {
            ObjectNode body = NODES.objectNode();
            body.putArray("candidates").addObject().put("candidateId", "fz-x" + random.nextInt(1000));
            return body;
        }
        if (p.endsWith("/key-corrections")) {
            return NODES.objectNode().put("questionId", "q09").put("key", 3.14).put("tolerance", 0.005);
        }
        if (p.endsWith("/extend")) {
            return NODES.objectNode().put("seconds", 60).put("reason", "fuzz");
        }
        if (p.endsWith("/warn")) {
            return NODES.objectNode().put("message", "fuzz");
        }
        if (p.endsWith("/marks")) {
            ObjectNode body = NODES.objectNode();
            body.putObject("marks").put("q11", 1);
            return body;
        }
        if (p.equals("/api/v1/exams")) {
            ObjectNode body = NODES.objectNode().put("title", "fz").put("opensAt", Instant.now().toString())
                    .put("closesAt", Instant.now().plusSeconds(7200).toString()).put("durationSeconds", 600).put("graceSeconds", 0);
            body.putArray("questions").addObject().put("id", "q1").put("type", "TRUE_FALSE").put("prompt", "?").put("points", 1)
                    .put("key", true);
            return body;
        }
        if (p.endsWith("/submitted")) {
            return NODES.objectNode().put("paperId", UUID.randomUUID().toString());
        }
        return NODES.objectNode().put("x", 1);
    }

    // ---- the valid requests (main and twin alike) -----------------------------------------------------------------

    private List<String> allQuestions() {
        List<String> ids = new ArrayList<>();
        for (int i = 1; i <= 12; i++) {
            ids.add(String.format(Locale.ROOT, "q%02d", i));
        }
        return ids;
    }

    private void validStep() {
        switch (random.nextInt(4)) {
            case 0, 1 -> {
                if (!mainSubmitted) {
                    List<String> ids = allQuestions();
                    java.util.Collections.shuffle(ids, random);
                    validAutosave(ids.subList(0, 1 + random.nextInt(4)));
                }
            }
            case 2 -> {
                for (Live live : List.of(main, twin)) {
                    RawHttp.Response r = json(options.sessionPort(), "POST", "/api/v1/sessions/" + live.sessionId + "/heartbeat",
                            live.token, null, List.of());
                    expect("valid heartbeat", r, 200);
                }
            }
            default -> {
                eventSeq++;
                for (Live live : List.of(main, twin)) {
                    ObjectNode body = NODES.objectNode();
                    body.putArray("events").addObject().put("eventId", "v-" + eventSeq).put("type", "TAB_HIDDEN")
                            .put("at", Instant.now().toString());
                    expect("valid events", json(options.sessionPort(), "POST", "/api/v1/sessions/" + live.sessionId + "/events",
                            live.token, body, List.of()), 202);
                }
            }
        }
    }

    private void validAutosave(List<String> questionIds) {
        version++;
        ObjectNode body = NODES.objectNode().put("version", version);
        ArrayNode changes = body.putArray("changes");
        for (String q : questionIds) {
            JsonNode value = Flow.value(q, random);
            changes.addObject().put("questionId", q).set("value", value);
            model.put(q, new Stamp(main.epoch, version, value));
        }
        for (Live live : List.of(main, twin)) {
            expect("valid autosave", json(options.answerPort(), "PATCH", "/api/v1/answers/" + live.sessionId, live.token,
                    body, List.of()), 200);
        }
    }

    private void submitBoth() {
        ObjectNode sheet = NODES.objectNode();
        ObjectNode answers = sheet.putObject("answers");
        model.forEach((q, stamp) -> answers.putObject(q).put("version", stamp.version()).set("value", stamp.value()));
        Map<String, JsonNode> papers = new LinkedHashMap<>();
        for (Live live : List.of(main, twin)) {
            sheet.put("sessionId", live.sessionId);
            RawHttp.Response r = json(options.submissionPort(), "POST", "/api/v1/submissions", live.token, sheet,
                    List.<String[]>of(new String[] {"Idempotency-Key", "final-" + live.sessionId}));
            expect("valid submission", r, 201);
            papers.put(live.candidateId, parse(r.body()));
        }
        mainSubmitted = true;
        JsonNode mainPaperBody = papers.get("fz-main");
        JsonNode twinPaperBody = papers.get("fz-twin");
        if (mainPaperBody != null) {
            mainPaper = mainPaperBody.path("paperId").asText();
        }
        comparePapers("after submit", mainPaperBody, twinPaperBody);
    }

    private void comparePapers(String when, JsonNode mainBody, JsonNode twinBody) {
        if (mainBody == null || twinBody == null) {
            findings.add("twin-divergence", "a paper is missing " + when, null, null);
            return;
        }
        if (!mainBody.path("answers").equals(twinBody.path("answers"))
                || mainBody.path("answerCount").asInt() != twinBody.path("answerCount").asInt()) {
            findings.add("twin-divergence", "paper answers differ " + when + ": main " + mainBody.path("answers") + " twin "
                    + twinBody.path("answers"), null, null);
        }
        Map<String, JsonNode> expected = new TreeMap<>();
        model.forEach((q, s) -> {
            if (!s.value().isNull()) {
                expected.put(q, s.value());
            }
        });
        Map<String, JsonNode> got = new TreeMap<>();
        mainBody.path("answers").fields().forEachRemaining(e -> {
            if (!e.getValue().path("value").isNull()) {
                got.put(e.getKey(), e.getValue().path("value"));
            }
        });
        if (!Flow.sameValues(expected, got)) {
            findings.add("twin-divergence", "main paper is not what the valid requests made " + when + ": expected " + expected
                    + " got " + got, null, null);
        }
    }

    // ---- oracles --------------------------------------------------------------------------------------------------

    void check(String label, byte[] request, RawHttp.Response r, boolean head) {
        String family = label.split(" ")[0];
        if (r.status() < 0) {
            findings.add("no-answer", family, label + ": " + r.failure(), request, r);
            return;
        }
        if (r.status() >= 500) {
            findings.add("5xx", r.status() + " " + label, request, r);
        } else if (r.status() >= 400) {
            String type = r.header("content-type");
            JsonNode body = head ? null : parse(r.body());
            if (codecAnswer(r) && !options.strict()) {
                codec.merge(r.status() + " " + family, 1, Integer::sum);
            } else if (type == null || !type.startsWith("application/problem+json")) {
                String what = r.status() + " " + (type == null ? "no content type" : type);
                findings.add("not-problem-json", what + " " + family, what + " " + label, request, r);
            } else if (!head && (body == null || !body.path("code").isTextual())) {
                findings.add("problem-without-code", r.status() + " " + family, r.status() + " " + label, request, r);
            }
        }
        String text = r.text();
        if (LEAK.matcher(text).find() || hostName != null && text.contains(hostName)) {
            findings.add("leak", r.status() + " " + family, r.status() + " " + label, request, r);
        }
    }

    /**
     * The bare answers of the HTTP codec and Quarkus' URI check, which run before any route (no hook for them in Quarkus
     * 3.33 / Vert.x 4.5: docs/fuzzing.md, "Known"): 400, 414 or 431 with an empty body and no content type.
     */
    static boolean codecAnswer(RawHttp.Response r) {
        return (r.status() == 400 || r.status() == 414 || r.status() == 431) && r.body().length == 0
                && r.header("content-type") == null;
    }

    private void expect(String label, RawHttp.Response r, int status) {
        check(label, null, r, false);
        // The garbage sent to the main session counts against its per-minute limits too
        // (docs/limits.md): a valid request refused by one of them, with Retry-After, is the limit working.
        if (r.status() == 429 && r.text().contains("\"RATE_LIMITED\"") && r.header("Retry-After") != null) {
            rateLimited++;
            return;
        }
        if (r.status() != status) {
            findings.add("valid-refused", label + ": " + r.status() + " " + abbreviate(r.text(), 200), null, r);
        }
    }

    private void checkBatch(int batchNo) {
        List<String> notReady = notReady();
        if (!notReady.isEmpty()) {
            findings.add("not-ready", "after batch " + batchNo + ": " + notReady, null, null);
        }
        JsonNode a = draft(main);
        JsonNode b = draft(twin);
        if (a == null || b == null || !a.path("answers").equals(b.path("answers")) || !a.path("epochs").equals(b.path("epochs"))) {
            findings.add("twin-divergence", "drafts differ after batch " + batchNo + ": main " + (a == null ? null : a.path("answers"))
                    + " twin " + (b == null ? null : b.path("answers")), null, null);
        }
        if (mainSubmitted) {
            JsonNode mp = get(options.submissionPort(), "/api/v1/submissions/" + mainPaper, main.token);
            if (mp == null || !mp.path("paperId").asText().equals(mainPaper)) {
                findings.add("twin-divergence", "main paper unreadable after batch " + batchNo, null, null);
            } else {
                JsonNode session = get(options.sessionPort(), "/api/v1/sessions/" + main.sessionId, options.operatorToken());
                if (session == null || !mainPaper.equals(session.path("paperId").asText())) {
                    findings.add("twin-divergence", "main session does not name its paper after batch " + batchNo, null, null);
                }
            }
        }
        System.out.printf(Locale.ROOT, "  batch %d: %d requests sent, %d findings so far%n", batchNo, sent, findings.total());
    }

    /** Every accepted answer reaches PostgreSQL: the write-behind backlog empties within 15 s of the last write. */
    private void checkPersisted() throws InterruptedException {
        double age = -1;
        for (int i = 0; i < 30; i++) {
            RawHttp.Response r = http.send(new RawHttp.Request("metrics", options.answerPort(),
                    RawHttp.build("GET", "/q/metrics", List.of(), null), false));
            java.util.regex.Matcher m = Pattern.compile("(?m)^exam_answer_persist_backlog_age_seconds(?:\\{[^}]*})? ([0-9.eE+-]+)")
                    .matcher(r.text());
            age = m.find() ? Double.parseDouble(m.group(1)) : -1;
            if (age == 0) {
                return;
            }
            Thread.sleep(500);
        }
        findings.add("not-persisted", "answer-service's write-behind backlog is still " + age + " s old 15 s after the last write",
                null, null);
    }

    private void checkArchive() {
        JsonNode verify = get(options.gradingPort(), "/api/v1/archive/verify", options.operatorToken());
        if (verify == null || !verify.path("valid").asBoolean(false)) {
            findings.add("archive", "archive chain does not verify: " + verify, null, null);
        }
    }

    JsonNode draft(Live live) {
        return get(options.answerPort(), "/api/v1/answers/" + live.sessionId, live.token);
    }

    JsonNode get(int port, String path, String token) {
        RawHttp.Response r = json(port, "GET", path, token, null, List.of());
        check("GET " + path, null, r, false);
        return r.status() == 200 ? parse(r.body()) : null;
    }

    List<String> notReady() {
        List<String> down = new ArrayList<>();
        for (int port : ports()) {
            RawHttp.Response r = http.send(new RawHttp.Request("ready", port, RawHttp.build("GET", "/q/health/ready", List.of(), null), false));
            if (r.status() != 200) {
                down.add(port + " (" + (r.status() < 0 ? r.failure() : r.status()) + ")");
            }
        }
        return down;
    }

    // ---- plumbing -------------------------------------------------------------------------------------------------

    int[] ports() {
        return new int[] {options.sessionPort(), options.answerPort(), options.submissionPort(), options.gradingPort()};
    }

    Options options() {
        return options;
    }

    Random random() {
        return random;
    }

    Findings findings() {
        return findings;
    }

    String examMain() {
        return examMain;
    }

    String code(String candidateId) {
        return codes.get(examMain + "/" + candidateId);
    }

    List<Tokens.Forged> forged() {
        return forged;
    }

    RawHttp.Response json(int port, String method, String path, String token, JsonNode body, List<String[]> extra) {
        List<String[]> headers = new ArrayList<>(extra);
        headers.add(new String[] {"Accept", "application/json"});
        if (token != null) {
            headers.add(new String[] {"Authorization", "Bearer " + token});
        }
        byte[] bytes = null;
        if (body != null) {
            headers.add(new String[] {"Content-Type", "application/json"});
            bytes = Mutators.bytes(body);
        } else if (!method.equals("GET")) {
            bytes = new byte[0];
        }
        return send("valid", port, RawHttp.build(method, path, headers, bytes), false);
    }

    RawHttp.Response send(String family, int port, byte[] bytes, boolean head) {
        RawHttp.Response r = http.send(new RawHttp.Request(family, port, bytes, head));
        sent++;
        families.merge(family.contains(":") ? family.substring(0, family.indexOf(':')) : family, 1, Integer::sum);
        statuses.merge(r.status(), 1, Integer::sum);
        byService.computeIfAbsent(serviceOf(port), k -> new TreeMap<>()).merge(r.status(), 1, Integer::sum);
        return r;
    }

    static JsonNode parse(byte[] body) {
        if (body == null || body.length == 0) {
            return null;
        }
        try {
            return Mutators.JSON.readTree(body);
        } catch (IOException e) {
            return null;
        }
    }

    private static String required(RawHttp.Response r, String field, String what) {
        JsonNode body = parse(r.body());
        if (r.status() / 100 != 2 || body == null || !body.hasNonNull(field)) {
            throw new IllegalStateException(what + " failed: " + r.status() + " " + abbreviate(r.text(), 300));
        }
        return body.get(field).asText();
    }

    static String abbreviate(String text, int max) {
        String flat = text.replaceAll("[\\r\\n]+", " ");
        return flat.length() <= max ? flat : flat.substring(0, max) + "…(" + flat.length() + " chars)";
    }

    private String serviceOf(int port) {
        if (port == options.sessionPort()) {
            return "session-service";
        } else if (port == options.answerPort()) {
            return "answer-service";
        } else if (port == options.submissionPort()) {
            return "submission-service";
        }
        return port == options.gradingPort() ? "grading-saga" : "port " + port;
    }

    private void report(long seconds) throws IOException {
        System.out.println();
        System.out.printf(Locale.ROOT, "exam fuzz: seed %d — %d requests in %d s (%d hostile asked for, %d flows)%n", options.seed(),
                sent, seconds, options.requests(), options.flows());
        System.out.println("  by family: " + families);
        System.out.println("  by status: " + statuses);
        byService.forEach((service, counts) -> System.out.printf(Locale.ROOT, "  %-19s %6d requests, by status: %s%n", service,
                counts.values().stream().mapToInt(Integer::intValue).sum(), counts));
        int bare = codec.values().stream().mapToInt(Integer::intValue).sum();
        System.out.println("  bare answers of the HTTP codec / URI check, below every route (known, docs/fuzzing.md): " + bare
                + (bare == 0 ? "" : " " + codec));
        System.out.println("  valid requests refused by a per-minute limit (429 RATE_LIMITED, docs/limits.md): " + rateLimited);
        findings.print(System.out);
        if (options.json() != null) {
            ObjectNode out = NODES.objectNode().put("seed", options.seed()).put("requests", sent).put("seconds", seconds)
                    .put("flows", options.flows());
            out.set("families", Mutators.JSON.valueToTree(families));
            out.set("statuses", Mutators.JSON.valueToTree(statuses));
            out.set("services", Mutators.JSON.valueToTree(byService));
            out.set("codec", Mutators.JSON.valueToTree(codec));
            out.set("findings", findings.json());
            Files.writeString(options.json(), Mutators.JSON.writerWithDefaultPrettyPrinter().writeValueAsString(out));
        }
        System.out.println(findings.isEmpty() ? "exam fuzz: PASS — no oracle was violated"
                : "exam fuzz: FAIL — " + findings.total() + " violations; replay with --seed " + options.seed()
                        + " --requests " + options.requests());
    }
}
