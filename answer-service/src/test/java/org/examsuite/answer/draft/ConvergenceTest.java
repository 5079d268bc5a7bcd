package org.examsuite.answer.draft;

import static org.examsuite.answer.support.Fixtures.change;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;
import static org.quicktheories.generators.SourceDSL.longs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.net.URI;
import java.net.URL;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.examsuite.answer.support.Concurrent;
import org.examsuite.answer.support.Concurrent.Reply;
import org.examsuite.answer.support.Fixtures;
import org.examsuite.answer.support.Fixtures.TestSession;
import org.examsuite.answer.support.SessionServiceStub;
import org.examsuite.testing.TestKeys;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Convergence: however the network reorders, repeats or races autosaves, the draft ends
 * as in-order application would leave it — per question the value of the highest stamp.
 */
@QuarkusTest
@QuarkusTestResource(TestKeys.class)
@QuarkusTestResource(SessionServiceStub.class)
class ConvergenceTest {
    private static final String[] QUESTIONS = {"q1", "q3", "q4", "q6"};

    @Inject
    Fixtures fixtures;
    @Inject
    ObjectMapper mapper;
    @TestHTTPResource("/api/v1/answers/")
    URL answers;

    @AfterEach
    void cleanUp() {
        fixtures.cleanUp();
    }

    /** A request as a client makes it: one stamp (epoch, version) for all its changes. */
    record Sent(long epoch, long version, Map<String, String> changes) {
        String body() {
            StringBuilder sb = new StringBuilder("{\"version\": " + version + ", \"changes\": [");
            changes.forEach((q, v) -> sb.append(sb.charAt(sb.length() - 1) == '[' ? "" : ",")
                    .append("{\"questionId\": \"").append(q).append("\", \"value\": ").append(v).append('}'));
            return sb.append("]}").toString();
        }
    }

    /** Clients send rising versions per device; a later device (epoch) may start from low versions. */
    static List<Sent> script(List<Integer> seeds) {
        List<Sent> sent = new ArrayList<>();
        long[] nextVersion = {0, 1, 1, 1};
        for (int seed : seeds) {
            int epoch = 1 + seed % 3;
            long version = nextVersion[epoch];
            nextVersion[epoch] += 1 + (seed / 3) % 4;
            Map<String, String> changes = new LinkedHashMap<>();
            for (int i = 0; i <= (seed / 12) % 3; i++) {
                String q = QUESTIONS[(seed / 36 + i) % QUESTIONS.length];
                changes.put(q, (seed / 7) % 4 == 0 ? "null" : value(q, epoch, version));
            }
            sent.add(new Sent(epoch, version, changes));
        }
        return sent;
    }

    private static String value(String q, long epoch, long version) {
        return switch (q) {
            case "q1" -> version % 2 == 0 ? "\"3\"" : "\"4\"";
            case "q3" -> version % 2 == 0 ? "true" : "false";
            default -> "\"" + q + "@" + epoch + "." + version + "\"";
        };
    }

    /** In-order application: per question, the value of the highest stamp (lexicographic). */
    static Map<String, long[]> expected(List<Sent> sent, Map<String, String> values) {
        Map<String, long[]> held = new HashMap<>();
        for (Sent s : sent) {
            s.changes().forEach((q, v) -> {
                long[] h = held.get(q);
                if (h == null || s.epoch() > h[0] || (s.epoch() == h[0] && s.version() > h[1])) {
                    held.put(q, new long[] {s.epoch(), s.version()});
                    values.put(q, v);
                }
            });
        }
        return held;
    }

    @Test
    void reorderedAndRepeatedDeliveryConvergesToInOrderApplication() {
        qt().withExamples(25).withShrinkCycles(20)
                .forAll(lists().of(integers().between(0, 10_000)).ofSizeBetween(1, 12), longs().all())
                .checkAssert((seeds, shuffleSeed) -> {
                    TestSession s = fixtures.session();
                    List<Sent> sent = script(seeds);
                    List<Sent> delivered = new ArrayList<>(sent);
                    Random random = new Random(shuffleSeed);
                    sent.forEach(x -> {
                        if (random.nextInt(3) == 0) {
                            delivered.add(x); // a retry of a request whose answer was lost
                        }
                    });
                    Collections.shuffle(delivered, random);
                    for (Sent x : delivered) {
                        s.patch(x.epoch(), x.body()).statusCode(200);
                    }
                    assertDraftIs(s, sent);
                    fixtures.cleanUp();
                });
    }

    @Test
    void twoHundredConcurrentAutosavesConvergeToThePerQuestionMaximum() {
        TestSession s = fixtures.session();
        List<Sent> sent = new ArrayList<>();
        Random random = new Random(42);
        for (int version = 1; version <= 200; version++) {
            Map<String, String> changes = new LinkedHashMap<>();
            String q = QUESTIONS[random.nextInt(QUESTIONS.length)];
            changes.put(q, random.nextInt(5) == 0 ? "null" : value(q, 1, version));
            sent.add(new Sent(1, version, changes));
        }
        Collections.shuffle(sent, random);
        List<CompletableFuture<Reply>> futures = new ArrayList<>();
        URI uri = URI.create(answers + s.sessionId());
        sent.forEach(x -> futures.add(Concurrent.send("PATCH", uri, s.token(), x.body())));
        List<Reply> replies = Concurrent.all(futures);
        replies.forEach(r -> assertEquals(200, r.status(), r.body()));
        assertDraftIs(s, sent);
        s.draft().statusCode(200).body("version", org.hamcrest.Matchers.equalTo(200));
    }

    private void assertDraftIs(TestSession s, List<Sent> sent) {
        Map<String, String> values = new HashMap<>();
        Map<String, long[]> stamps = expected(sent, values);
        try {
            JsonNode body = mapper.readTree(s.draft().statusCode(200).extract().asString());
            JsonNode draft = body.get("answers");
            assertEquals(stamps.keySet(), toSet(draft.fieldNames()));
            stamps.forEach((q, stamp) -> {
                JsonNode answer = draft.get(q);
                assertEquals(Set.of("value", "version"), toSet(answer.fieldNames()), q + " has the final sheet's shape");
                assertEquals(stamp[0], body.get("epochs").get(q).asLong(), q + " epoch");
                assertEquals(stamp[1], answer.get("version").asLong(), q + " version");
                assertEquals(values.get(q), answer.get("value").toString(), q + " value");
            });
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }

    private static Set<String> toSet(Iterator<String> names) {
        Set<String> set = new HashSet<>();
        names.forEachRemaining(set::add);
        return set;
    }

    @Test
    void aDuplicateQuestionInOneRequestKeepsTheLaterEntry() {
        TestSession s = fixtures.session();
        s.patch("{\"version\": 1, \"changes\": [{\"questionId\": \"q4\", \"value\": \"a\"},"
                + " {\"questionId\": \"q4\", \"value\": \"b\"}]}").statusCode(200);
        s.draft().body("answers.q4.value", org.hamcrest.Matchers.equalTo("b"));
        s.patch(change(1, "q4", "\"c\"")).statusCode(200).body("stale[0].heldVersion", org.hamcrest.Matchers.equalTo(1));
    }
}
