// Seeds the heartbeat benchmark through session-service's own API, as an exam day would:
// an operator creates an exam open now, enrolls N candidates and each candidate starts a
// session. JDK only, run as a single-file program:
//   java Seed.java <base-url> <sessions> <operator-private-key.pem> <out-file>
// Writes "<sessionId> <candidate token>" lines to <out-file>, the exam id to <out-file>.exam and
// the operator token to <out-file>.operator (the live benchmark's commands).
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
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

public class Seed {
    // HTTP/1.1, as wrk and the exam frontends behind the ingress speak it (the JDK client would
    // offer an h2c upgrade on every request). No timeout: a stuck seed is a finding, not noise.
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    public static void main(String[] args) throws Exception {
        String base = args[0];
        int sessions = Integer.parseInt(args[1]);
        PrivateKey operatorKey = privateKey(Files.readString(Path.of(args[2])));
        Path out = Path.of(args[3]);
        long now = Instant.now().getEpochSecond();
        String operator = sign(operatorKey, "{\"iss\":\"exam-operator-dev\",\"aud\":\"exam-operator\",\"sub\":\"heartbeat-bench\","
                + "\"upn\":\"heartbeat-bench\",\"groups\":[\"operator\"],\"iat\":" + now + ",\"exp\":" + (now + 6 * 3600) + "}");

        Instant opens = Instant.now().minus(1, ChronoUnit.MINUTES).truncatedTo(ChronoUnit.SECONDS);
        String exam = "{\"title\":\"heartbeat-bench\",\"opensAt\":\"" + opens + "\",\"closesAt\":\"" + opens.plus(6, ChronoUnit.HOURS)
                + "\",\"durationSeconds\":18000,\"graceSeconds\":30,\"questions\":[{\"id\":\"q1\",\"type\":\"ESSAY\","
                + "\"prompt\":\"Discuss.\",\"points\":1}]}";
        String examId = field(call("POST", base + "/api/v1/exams", exam, operator, 201), "examId");
        Files.writeString(Path.of(out + ".exam"), examId + "\n");
        Files.writeString(Path.of(out + ".operator"), operator + "\n");

        List<String[]> enrolled = new ArrayList<>(); // candidateId, accessCode
        String prefix = "hb-" + UUID.randomUUID().toString().substring(0, 8) + "-";
        for (int first = 0; first < sessions; first += 1000) {
            StringBuilder body = new StringBuilder("{\"candidates\":[");
            for (int i = first; i < Math.min(sessions, first + 1000); i++) {
                body.append(i == first ? "" : ",").append("{\"candidateId\":\"").append(prefix).append(i).append("\"}");
            }
            String reply = call("POST", base + "/api/v1/exams/" + examId + "/candidates", body.append("]}").toString(), operator, 201);
            Matcher m = Pattern.compile("\"candidateId\"\\s*:\\s*\"([^\"]+)\"[^}]*?\"accessCode\"\\s*:\\s*\"([^\"]+)\"").matcher(reply);
            while (m.find()) {
                enrolled.add(new String[] {m.group(1), m.group(2)});
            }
        }
        if (enrolled.size() != sessions) {
            throw new IllegalStateException("enrolled " + enrolled.size() + " of " + sessions);
        }
        ExecutorService pool = Executors.newFixedThreadPool(8);
        List<Future<String>> started = new ArrayList<>();
        for (String[] candidate : enrolled) {
            started.add(pool.submit(() -> {
                String reply = call("POST", base + "/api/v1/sessions", "{\"examId\":\"" + examId + "\",\"candidateId\":\""
                        + candidate[0] + "\",\"accessCode\":\"" + candidate[1] + "\"}", null, 201);
                return field(reply, "sessionId") + " " + field(reply, "token");
            }));
        }
        List<String> lines = new ArrayList<>();
        for (Future<String> f : started) {
            lines.add(f.get());
        }
        pool.shutdown();
        Files.write(out, lines);
        System.out.println("started " + lines.size() + " sessions of exam " + examId);
    }

    private static String call(String method, String url, String body, String token, int expected) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).header("Content-Type", "application/json")
                .method(method, HttpRequest.BodyPublishers.ofString(body));
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        HttpResponse<String> reply = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
        if (reply.statusCode() != expected) {
            throw new IllegalStateException(method + " " + url + " -> " + reply.statusCode() + " " + reply.body());
        }
        return reply.body();
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
