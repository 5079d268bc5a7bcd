package org.examsuite.session.exam;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItems;
import static org.hamcrest.Matchers.nullValue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.examsuite.session.Fixtures;
import org.examsuite.session.TestClock;
import org.examsuite.testing.TestTokens;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code "format": "markdown"} questions through the API: stored as written when safe, refused naming the question when not. */
@QuarkusTest
class RichContentTest {
    static final String MATH_AND_CODE = """
            Solve $x^2 - 5x + 6 = 0$, where

            $$x = \\frac{-b \\pm \\sqrt{b^2-4ac}}{2a}$$

            ```java
            int x = a < b ? 1 : 2;
            ```""";

    @Inject
    TestClock clock;
    @Inject
    ObjectMapper json;

    @BeforeEach
    void resetClock() {
        clock.reset();
    }

    private String exam(List<Map<String, Object>> questions) throws Exception {
        return json.writeValueAsString(Map.of("title", "Rich", "opensAt", clock.instant().minus(Duration.ofMinutes(5)).toString(),
                "closesAt", clock.instant().plus(Duration.ofHours(2)).toString(), "durationSeconds", 3600,
                "questions", questions));
    }

    private static Map<String, Object> markdown(String id, String prompt, List<String> options) {
        return options == null
                ? Map.of("id", id, "type", "ESSAY", "format", "markdown", "prompt", prompt, "points", 1)
                : Map.of("id", id, "type", "SINGLE", "format", "markdown", "prompt", prompt, "options", options, "points", 1,
                        "key", options.get(0));
    }

    @Test
    void aMarkdownQuestionWithMathAndCodeIsStoredAsWrittenAndReachesTheCandidate() throws Exception {
        String examId = Fixtures.createExam(exam(List.of(
                markdown("m1", MATH_AND_CODE, null),
                markdown("m2", "Which is **prime**?", List.of("$2$", "`4`")),
                Map.of("id", "t1", "type", "ESSAY", "prompt", "<script>shown as text</script>", "points", 1),
                Map.of("id", "t2", "type", "ESSAY", "format", "text", "prompt", "plain", "points", 1))));
        given().auth().oauth2(TestTokens.operator()).get("/api/v1/exams/" + examId).then().statusCode(200)
                .body("questions[0].format", equalTo("markdown"))
                .body("questions[0].prompt", equalTo(MATH_AND_CODE))
                .body("questions[0].markdown", nullValue())
                .body("questions[2].format", nullValue())
                .body("questions[3].format", nullValue()); // plain text is the default, stored as no format
        Fixtures.Started started = Fixtures.startFresh(examId);
        given().auth().oauth2(started.token()).get("/api/v1/sessions/" + started.sessionId()).then().statusCode(200);
        String code = Fixtures.enroll(examId, "c-rich").get(0);
        Fixtures.start(examId, "c-rich", code).then().statusCode(201)
                .body("paper.questions[0].format", equalTo("markdown"))
                .body("paper.questions[0].prompt", equalTo(MATH_AND_CODE))
                .body("paper.questions[1].options", equalTo(List.of("$2$", "`4`")))
                .body("paper.questions[2].prompt", equalTo("<script>shown as text</script>"))
                .body("paper.questions[2].format", nullValue());
    }

    @Test
    void unsafeMarkdownIsRefusedNamingTheQuestionAndField() throws Exception {
        given().auth().oauth2(TestTokens.operator()).contentType(ContentType.JSON)
                .body(exam(List.of(markdown("ok", MATH_AND_CODE, null),
                        markdown("bad", "Hello <script>window.pwned = 1</script>", null))))
                .post("/api/v1/exams").then()
                .statusCode(400).contentType("application/problem+json")
                .body("code", equalTo("UNSAFE_CONTENT"))
                .body("questionId", equalTo("bad"))
                .body("field", equalTo("questions[1].prompt"))
                .body("detail", containsString("raw HTML"));
        given().auth().oauth2(TestTokens.operator()).contentType(ContentType.JSON)
                .body(exam(List.of(markdown("c1", "Pick one", List.of("[safe](https://example.org)", "[x](javascript:alert(1))")),
                        markdown("c2", "<img src=x onerror=alert(1)>", null),
                        markdown("c3", "$\\def\\a{\\a\\a}\\a$", null))))
                .post("/api/v1/exams").then()
                .statusCode(400)
                .body("code", equalTo("UNSAFE_CONTENT"))
                .body("questionId", equalTo("c1"))
                .body("field", equalTo("questions[0].options[1]"))
                .body("violations.field", equalTo(List.of("questions[0].options[1]", "questions[1].prompt", "questions[2].prompt")))
                .body("violations.questionId", hasItems("c1", "c2", "c3"));
    }

    @Test
    void anUnknownFormatIsAnInvalidField() throws Exception {
        given().auth().oauth2(TestTokens.operator()).contentType(ContentType.JSON)
                .body(exam(List.of(Map.of("id", "q", "type", "ESSAY", "format", "html", "prompt", "p", "points", 1))))
                .post("/api/v1/exams").then()
                .statusCode(400).body("code", equalTo("INVALID_FIELD")).body("field", equalTo("questions[0].format"));
    }
}
