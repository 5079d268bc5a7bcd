package org.examsuite.session.authoring;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasItems;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import org.examsuite.session.Fixtures;
import org.examsuite.session.TestClock;
import org.examsuite.testing.TestTokens;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Figures through the API: uploaded to a draft, checked, shown by questions that say what they show, read by the exam's own. */
@QuarkusTest
class FigureResourceTest {
    @Inject
    TestClock clock;

    private final String author = TestTokens.staff("author", "org-figures");

    @BeforeEach
    void resetClock() {
        clock.reset();
    }

    /** The smallest PNG header with these dimensions (the bytes after it are never decoded). */
    static byte[] png(int width, int height, int salt) {
        ByteBuffer b = ByteBuffer.allocate(45);
        b.put(new byte[] {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 13, 'I', 'H', 'D', 'R'});
        b.putInt(width).putInt(height).put(new byte[] {8, 6, 0, 0, 0}).putInt(salt);
        return b.array();
    }

    private String draft() {
        Instant now = clock.instant();
        return given().auth().oauth2(author).contentType(ContentType.JSON).body("""
                {"state": "DRAFT", "title": "Figures", "opensAt": "%s", "closesAt": "%s", "durationSeconds": 3600}"""
                .formatted(now.minus(Duration.ofMinutes(5)), now.plus(Duration.ofHours(2))))
                .post("/api/v1/exams").then().statusCode(201).extract().path("examId");
    }

    private Response upload(String examId, String type, byte[] bytes) {
        return given().auth().oauth2(author).contentType(type).body(bytes).post("/api/v1/exams/" + examId + "/figures");
    }

    private static String questions(String prompt) {
        return """
                {"questions": [{"id": "q1", "type": "SINGLE", "format": "markdown", "prompt": %s, "options": ["3", "4"],
                  "points": 1, "key": "4"}]}""".formatted(com.fasterxml.jackson.databind.node.TextNode.valueOf(prompt).toString());
    }

    private Response publishWith(String examId, String prompt) {
        String etag = given().auth().oauth2(author).get("/api/v1/exams/" + examId).header("ETag");
        given().auth().oauth2(author).contentType("application/merge-patch+json").header("If-Match", etag).body(questions(prompt))
                .patch("/api/v1/exams/" + examId).then().statusCode(200);
        return given().auth().oauth2(author).post("/api/v1/exams/" + examId + "/publish");
    }

    @Test
    void anAuthorUploadsAFigureAQuestionShowsItAndTheExamsCandidatesReadIt() {
        String examId = draft();
        byte[] image = png(640, 480, 1);
        String figureId = FigureService.sha256(image);
        upload(examId, "image/png", image).then().statusCode(201)
                .header("Location", endsWith("/api/v1/exams/" + examId + "/figures/" + figureId))
                .body("figureId", equalTo(figureId)).body("mediaType", equalTo("image/png")).body("bytes", equalTo(45))
                .body("width", equalTo(640)).body("height", equalTo(480))
                .body("markdown", equalTo("![what it shows](figure:" + figureId + ")")).body("removed", empty());
        // the same bytes again (a retried upload): the same figure, not a second one
        upload(examId, "image/png", image).then().statusCode(200).body("figureId", equalTo(figureId));
        given().auth().oauth2(author).get("/api/v1/exams/" + examId + "/figures").then().statusCode(200)
                .body("figures.figureId", equalTo(java.util.List.of(figureId))).body("figures[0].sizeBytes", equalTo(45));

        // a question shows it only with alt text, and only one of the exam's own figures
        publishWith(examId, "Which angle? ![](figure:" + figureId + ")").then().statusCode(400)
                .body("code", equalTo("UNSAFE_CONTENT")).body("violations.message", hasItem(containsString("needs alt text")));
        publishWith(examId, "Which angle? ![a triangle](figure:" + "0".repeat(64) + ")").then().statusCode(400)
                .body("violations.message", hasItem(containsString("not one of the exam's figures")));
        publishWith(examId, "Which angle? ![a triangle](https://example.org/t.png)").then().statusCode(400)
                .body("violations.message", hasItem(containsString("only show a figure uploaded to the exam")));
        publishWith(examId, "Which angle? ![a right triangle, sides 3, 4 and 5](figure:" + figureId + ")").then().statusCode(200)
                .body("questions[0].prompt", containsString("figure:" + figureId));

        // published: no more uploads
        upload(examId, "image/png", png(10, 10, 2)).then().statusCode(409).body("code", equalTo("EXAM_PUBLISHED"));

        // the exam's candidate reads it, cached for good; a candidate of another exam, or staff of another organisation, does not
        Fixtures.Started started = Fixtures.startFresh(examId);
        Response read = given().auth().oauth2(started.token()).get("/api/v1/exams/" + examId + "/figures/" + figureId);
        read.then().statusCode(200).contentType("image/png").header("ETag", "\"" + figureId + "\"")
                .header("Cache-Control", "private, max-age=31536000, immutable").header("X-Content-Type-Options", "nosniff");
        assertArrayEquals(image, read.asByteArray());
        given().auth().oauth2(started.token()).header("If-None-Match", "\"" + figureId + "\"")
                .get("/api/v1/exams/" + examId + "/figures/" + figureId).then().statusCode(304);
        // a revalidation of an id the exam does not have is not a 304
        given().auth().oauth2(started.token()).header("If-None-Match", "\"" + "0".repeat(64) + "\"")
                .get("/api/v1/exams/" + examId + "/figures/" + "0".repeat(64)).then().statusCode(404).body("code", equalTo("FIGURE_NOT_FOUND"));
        Fixtures.Started elsewhere = Fixtures.startFresh(Fixtures.openExam(clock.instant()));
        given().auth().oauth2(elsewhere.token()).get("/api/v1/exams/" + examId + "/figures/" + figureId).then()
                .statusCode(404).contentType("application/problem+json").body("code", equalTo("FIGURE_NOT_FOUND"));
        given().auth().oauth2(TestTokens.staff("author", "org-other")).get("/api/v1/exams/" + examId + "/figures/" + figureId)
                .then().statusCode(404).body("code", equalTo("FIGURE_NOT_FOUND"));
        given().auth().oauth2(TestTokens.staff("proctor", "org-figures", examId)).get("/api/v1/exams/" + examId + "/figures/" + figureId)
                .then().statusCode(200);

        // a duplicate takes the figures with it, so it can be published as it is
        String copy = given().auth().oauth2(author).post("/api/v1/exams/" + examId + "/duplicate").then().statusCode(201)
                .extract().path("examId");
        given().auth().oauth2(author).get("/api/v1/exams/" + copy + "/figures").then().statusCode(200)
                .body("figures.figureId", equalTo(java.util.List.of(figureId)));
    }

    @Test
    void anSvgIsStoredWithoutWhatCouldRunOrReachOutside() {
        String examId = draft();
        String svg = """
                <?xml version="1.0"?>
                <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="120" height="80"
                     xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape" onload="alert(1)" inkscape:version="1.3">
                  <metadata>editor's notes</metadata>
                  <script>alert(2)</script>
                  <defs><linearGradient id="g"><stop offset="0" stop-color="red"/></linearGradient></defs>
                  <rect width="100" height="50" fill="url(#g)" style="stroke: black"/>
                  <circle r="5" fill="url(https://evil.example/x)"/>
                  <a href="javascript:alert(3)"><text x="5" y="20">A &amp; B</text></a>
                  <use xlink:href="#g"/><use href="https://evil.example/sprite.svg#x"/>
                  <foreignObject><div xmlns="http://www.w3.org/1999/xhtml">html</div></foreignObject>
                  <text x="1" y="70">side <tspan font-weight="bold">c</tspan></text>
                </svg>""";
        Response stored = upload(examId, "image/svg+xml; charset=utf-8", svg.getBytes(StandardCharsets.UTF_8));
        stored.then().statusCode(201).body("mediaType", equalTo("image/svg+xml")).body("width", equalTo(120)).body("height", equalTo(80))
                .body("removed", hasItems("attribute onload", "attribute inkscape:version", "element <script>", "element <a>",
                        "element <foreignObject>", "attribute fill (a reference outside the figure, or unsafe style)",
                        "attribute href (a reference outside the figure, or unsafe style)"));
        String figureId = stored.path("figureId");
        String body = given().auth().oauth2(author).get("/api/v1/exams/" + examId + "/figures/" + figureId).then().statusCode(200)
                .contentType("image/svg+xml").header("Content-Security-Policy", containsString("sandbox")).extract().asString();
        assertEquals(FigureService.sha256(body.getBytes(StandardCharsets.UTF_8)), figureId, "the id is the SHA-256 of what is served");
        for (String gone : new String[] {"script", "alert", "onload", "evil.example", "metadata", "foreignObject", "inkscape", "javascript"}) {
            assertFalse(body.contains(gone), gone + " in " + body);
        }
        org.hamcrest.MatcherAssert.assertThat(body, containsString("<rect fill=\"url(#g)\" height=\"50\" style=\"stroke: black\" width=\"100\"></rect>"));
        org.hamcrest.MatcherAssert.assertThat(body, containsString("<use href=\"#g\">"));
        org.hamcrest.MatcherAssert.assertThat(body, containsString("side <tspan font-weight=\"bold\">c</tspan>"));
    }

    @Test
    void whatIsNotAFigureIsRefusedAndNothingIsStored() {
        String examId = draft();
        upload(examId, "text/plain", "hello".getBytes(StandardCharsets.UTF_8)).then().statusCode(415)
                .contentType("application/problem+json").body("code", equalTo("UNSUPPORTED_MEDIA_TYPE"));
        upload(examId, "image/jpeg", png(10, 10, 3)).then().statusCode(400).body("code", equalTo("INVALID_FIGURE"))
                .body("detail", containsString("not a JPEG"));
        upload(examId, "image/png", png(100_000, 100_000, 4)).then().statusCode(400).body("code", equalTo("INVALID_FIGURE"))
                .body("detail", containsString("each side must be 1 to 4096"));
        upload(examId, "image/svg+xml", "<!DOCTYPE svg [<!ENTITY a \"aaaa\">]><svg xmlns=\"http://www.w3.org/2000/svg\">&a;</svg>"
                .getBytes(StandardCharsets.UTF_8)).then().statusCode(400).body("code", equalTo("INVALID_FIGURE"))
                .body("detail", containsString("DOCTYPE"));
        upload(examId, "image/svg+xml", "<html><body/></html>".getBytes(StandardCharsets.UTF_8)).then().statusCode(400)
                .body("detail", containsString("not an <svg> element"));
        upload(examId, "image/png", new byte[FigureContentLimits.OVER]).then().statusCode(413).contentType("application/problem+json");
        given().auth().oauth2(author).get("/api/v1/exams/" + examId + "/figures").then().statusCode(200).body("figures", empty());
        // nor by a proctor, who does not author
        given().auth().oauth2(TestTokens.staff("proctor", "org-figures", examId)).contentType("image/png").body(png(10, 10, 5))
                .post("/api/v1/exams/" + examId + "/figures").then().statusCode(403);
    }

    @Test
    void anExamHasAtMostThirtyTwoFigures() {
        String examId = draft();
        for (int i = 0; i < FigureService.MAX_FIGURES; i++) {
            upload(examId, "image/png", png(10, 10, 100 + i)).then().statusCode(201);
        }
        upload(examId, "image/png", png(10, 10, 99)).then().statusCode(409).body("code", equalTo("TOO_MANY_FIGURES"));
        // one of those again is still found
        upload(examId, "image/png", png(10, 10, 100)).then().statusCode(200);
        given().auth().oauth2(author).get("/api/v1/exams/" + examId + "/figures").then().body("figures.size()", equalTo(32))
                .body("figures.figureId", not(hasItem(FigureService.sha256(png(10, 10, 99)))));
    }

    /** A body over the HTTP limit (1 MiB) and the figure limit. */
    private static final class FigureContentLimits {
        static final int OVER = org.examsuite.session.exam.content.FigureContent.MAX_BYTES + 1;
    }
}
