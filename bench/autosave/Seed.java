// Seeds a benchmark: publishes N sessions and their exam in Redis the way session-service
// does (ARCHITECTURE.md "Published Redis state"), and mints one candidate token per session.
// JDK only, run as a single-file program:
//   java Seed.java <sessions> <redis-host> <redis-port> <redis-db> <candidate-private-key.pem> <out-file>
// Writes "<sessionId> <token>" lines to <out-file>.
import java.io.BufferedOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.UUID;

public class Seed {
    public static void main(String[] args) throws Exception {
        int sessions = Integer.parseInt(args[0]);
        String host = args[1];
        int port = Integer.parseInt(args[2]);
        String db = args[3];
        PrivateKey key = privateKey(Files.readString(Path.of(args[4])));
        Path out = Path.of(args[5]);

        String examId = "autosave-bench-" + UUID.randomUUID();
        StringBuilder questions = new StringBuilder("{\"examId\":\"" + examId + "\",\"questions\":[");
        for (int q = 1; q <= 20; q++) {
            questions.append(q == 1 ? "" : ",").append("{\"id\":\"q").append(q).append("\",\"type\":\"ESSAY\"}");
        }
        questions.append("]}");
        long now = System.currentTimeMillis() / 1000;
        long deadlineMs = (now + 6 * 3600) * 1000;

        List<List<String>> commands = new ArrayList<>();
        commands.add(List.of("SELECT", db));
        commands.add(List.of("SET", "ses:{exam:" + examId + "}:questions", questions.toString()));
        try (PrintWriter tokens = new PrintWriter(Files.newBufferedWriter(out))) {
            for (int i = 0; i < sessions; i++) {
                String sessionId = "autosave-bench-" + UUID.randomUUID();
                commands.add(List.of("HSET", "ses:{" + sessionId + "}:state", "examId", examId, "epoch", "1",
                        "deadline", Long.toString(deadlineMs), "graceMs", "30000", "status", "IN_PROGRESS"));
                String claims = "{\"iss\":\"exam-session\",\"aud\":\"exam-candidate\",\"sub\":\"c-" + i + "\",\"iat\":" + now
                        + ",\"exp\":" + (now + 6 * 3600) + ",\"sessionId\":\"" + sessionId + "\",\"examId\":\"" + examId
                        + "\",\"candidateId\":\"c-" + i + "\",\"deviceEpoch\":1}";
                tokens.println(sessionId + " " + sign(key, claims));
            }
        }
        try (Socket socket = new Socket(host, port)) {
            OutputStream o = new BufferedOutputStream(socket.getOutputStream(), 1 << 16);
            for (List<String> command : commands) {
                o.write(("*" + command.size() + "\r\n").getBytes(StandardCharsets.UTF_8));
                for (String arg : command) {
                    byte[] bytes = arg.getBytes(StandardCharsets.UTF_8);
                    o.write(("$" + bytes.length + "\r\n").getBytes(StandardCharsets.UTF_8));
                    o.write(bytes);
                    o.write("\r\n".getBytes(StandardCharsets.UTF_8));
                }
            }
            o.flush();
            InputStream in = socket.getInputStream();
            for (int replies = 0; replies < commands.size(); ) {
                int b = in.read();
                if (b == -1) {
                    throw new IllegalStateException("redis closed the connection");
                }
                if (b == '-') {
                    throw new IllegalStateException("redis error while seeding");
                }
                if (b == '\n') {
                    replies++;
                }
            }
        }
        System.out.println("seeded " + sessions + " sessions of exam " + examId + " into redis db " + db);
    }

    private static String sign(PrivateKey key, String claims) throws Exception {
        Base64.Encoder b64 = Base64.getUrlEncoder().withoutPadding();
        // no kid: the service under bench verifies with a key set of one key, which takes a token without one
        String head = b64.encodeToString("{\"alg\":\"RS256\",\"typ\":\"JWT\"}".getBytes(StandardCharsets.UTF_8))
                + "." + b64.encodeToString(claims.getBytes(StandardCharsets.UTF_8));
        Signature rsa = Signature.getInstance("SHA256withRSA");
        rsa.initSign(key);
        rsa.update(head.getBytes(StandardCharsets.US_ASCII));
        return head + "." + b64.encodeToString(rsa.sign());
    }

    private static PrivateKey privateKey(String pem) throws Exception {
        String body = pem.replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
        return KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(body)));
    }
}
