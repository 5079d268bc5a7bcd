package org.examsuite.grading;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quarkus.redis.datasource.RedisDataSource;
import io.restassured.path.json.JsonPath;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.Signature;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.examsuite.grading.archive.ChainHash;
import org.examsuite.testing.TestKeys;
import org.examsuite.testing.TestTokens;

/** Exams, signed papers and stream messages for the tests, and waiting on results. */
public final class Fixture {
    public static final ObjectMapper MAPPER = new ObjectMapper();

    public record Submitted(String paperId, String sessionId, String examId) {
    }

    private Fixture() {
    }

    /** Registers an exam (with keys) at the session-service stub; {@code questions} is a JSON array. */
    public static String exam(String questions, long keyRevision) {
        String examId = "exam-" + UUID.randomUUID();
        putExam(examId, questions, keyRevision);
        return examId;
    }

    public static void putExam(String examId, String questions, long keyRevision) {
        StubServices.EXAMS.put(examId, "{\"examId\":\"" + examId + "\",\"title\":\"t\",\"keyRevision\":" + keyRevision
                + ",\"questions\":" + questions + "}");
    }

    /** A paper signed as submission-service signs it, registered at the stub (not yet published). */
    public static Submitted paper(String examId, Map<String, Object> answers) {
        Submitted paper = new Submitted("paper-" + UUID.randomUUID(), "session-" + UUID.randomUUID(), examId);
        StubServices.PAPERS.put(paper.paperId(), signed(unsigned(paper, answers)));
        return paper;
    }

    public static ObjectNode unsigned(Submitted paper, Map<String, Object> answers) {
        ObjectNode node = MAPPER.createObjectNode();
        node.put("paperId", paper.paperId());
        node.put("sessionId", paper.sessionId());
        node.put("examId", paper.examId());
        node.put("candidateId", "c-" + paper.sessionId().substring(8, 16));
        node.put("submittedAt", "2026-12-01T09:00:00Z");
        node.put("submittedBy", "CANDIDATE");
        ObjectNode sheet = node.putObject("answers");
        answers.forEach((question, value) -> {
            ObjectNode answer = sheet.putObject(question);
            answer.set("value", MAPPER.valueToTree(value));
            answer.put("version", 3);
            answer.put("epoch", 1);
        });
        node.put("answerCount", answers.size());
        node.put("lateChanges", 0);
        return node;
    }

    public static String signed(ObjectNode unsigned) {
        String digest = ChainHash.sha256(ChainHash.canonical(unsigned.toString()));
        try {
            Signature rsa = Signature.getInstance("SHA256withRSA");
            rsa.initSign(TestKeys.PAPER.getPrivate());
            rsa.update(digest.getBytes(StandardCharsets.UTF_8));
            ObjectNode paper = unsigned.deepCopy();
            paper.put("digest", digest);
            paper.put("signature", Base64.getEncoder().encodeToString(rsa.sign()));
            return paper.toString();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** XADD the paper event as submission-service's relay does; returns the message id. */
    public static String publish(RedisDataSource redis, Submitted paper) {
        Map<String, String> fields = new HashMap<>();
        fields.put("paperId", paper.paperId());
        fields.put("sessionId", paper.sessionId());
        fields.put("examId", paper.examId());
        fields.put("traceparent", "00-" + UUID.randomUUID().toString().replace("-", "") + "-00f067aa0ba902b7-01");
        return redis.stream(String.class).xadd(StubServices.STREAM, fields);
    }

    public static Submitted submit(RedisDataSource redis, String examId, Map<String, Object> answers) {
        Submitted paper = paper(examId, answers);
        publish(redis, paper);
        return paper;
    }

    /** The result as an operator sees it. */
    public static JsonPath result(String paperId) {
        return given().auth().oauth2(TestTokens.operator()).get("/api/v1/results/" + paperId).then().statusCode(200)
                .extract().jsonPath();
    }

    public static JsonPath awaitStatus(String paperId, String status) {
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100)).until(() -> {
            int code = given().auth().oauth2(TestTokens.operator()).get("/api/v1/results/" + paperId).statusCode();
            return code == 200 && status.equals(result(paperId).getString("status"));
        });
        return result(paperId);
    }

    public static JsonPath saga(String sagaId) {
        return given().auth().oauth2(TestTokens.operator()).get("/api/v1/sagas/" + sagaId).then().statusCode(200)
                .extract().jsonPath();
    }

    public static JsonPath awaitSaga(String paperId, String status) {
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100)).until(() -> {
            int code = given().auth().oauth2(TestTokens.operator()).get("/api/v1/results/" + paperId).statusCode();
            return code == 200 && status.equals(saga(result(paperId).getString("sagaId")).getString("status"));
        });
        return saga(result(paperId).getString("sagaId"));
    }
}
