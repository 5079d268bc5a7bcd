package org.examsuite.k8s;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.examsuite.k8s.OtlpReceiver.ReceivedSpan;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Against the running suite (./exam test live), whose OTLP exporter (http/protobuf) points at
 * this test's receiver on EXAM_LIVE_OTLP_PORT: one submission, sent with a traceparent of a known
 * trace id, is one trace from the HTTP request through the seal call and the paper stream to the
 * archived result.
 */
@Tag("live")
class LiveTraceTest {

    /** The spans the trace must hold, in flow order: what, and how to know it. */
    static final Map<String, Predicate<ReceivedSpan>> EXPECTED = new LinkedHashMap<>();
    static final String CONSUMER = "grading-saga consumer span of the stream message";

    static {
        EXPECTED.put("submission-service HTTP server span of POST /api/v1/submissions",
                s -> s.service().equals("submission-service") && s.kind().equals("SERVER") && s.mentions("/api/v1/submissions"));
        EXPECTED.put("submission-service client call that seals the draft (answer-service /internal … seal)",
                s -> s.service().equals("submission-service") && s.kind().equals("CLIENT") && s.mentions("seal"));
        EXPECTED.put("answer-service HTTP server span of the seal",
                s -> s.service().equals("answer-service") && s.kind().equals("SERVER") && s.mentions("seal"));
        EXPECTED.put("submission-service outbox producer span (XADD to the paper stream)",
                s -> s.service().equals("submission-service") && s.kind().equals("PRODUCER"));
        EXPECTED.put(CONSUMER,
                s -> s.service().equals("grading-saga") && s.kind().equals("CONSUMER"));
        EXPECTED.put("grading-saga archive step",
                s -> s.service().equals("grading-saga") && s.name().contains("archive"));
    }

    @Test
    void oneTraceFromTheSubmissionToTheArchivedResult() throws Exception {
        String port = System.getenv("EXAM_LIVE_OTLP_PORT");
        if (port == null || port.isBlank()) {
            fail("EXAM_LIVE_OTLP_PORT is not set: ./exam test live starts the suite with OTEL_EXPORTER_OTLP_ENDPOINT="
                    + "http://127.0.0.1:<port> and QUARKUS_OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf and passes the port here");
        }
        LiveSuite.requireReady();
        String operator = LiveSuite.operatorToken();
        try (OtlpReceiver receiver = new OtlpReceiver(Integer.parseInt(port.strip()))) {
            byte[] ids = new byte[24];
            new SecureRandom().nextBytes(ids);
            String hex = HexFormat.of().formatHex(ids);
            String traceId = hex.substring(0, 32);
            String traceparent = "00-" + traceId + "-" + hex.substring(32, 48) + "-01";

            JsonNode result = LiveSuite.smallExam(operator, traceparent);
            System.out.println("live trace: paper " + result.path("paperId").asText() + " " + result.path("status").asText()
                    + ", archiveSeq " + result.path("archiveSeq").asText() + ", trace id " + traceId);

            try {
                Awaitility.await("every expected span of trace " + traceId).atMost(Duration.ofSeconds(60))
                        .pollInterval(Duration.ofMillis(500))
                        .until(() -> missing(receiver.trace(traceId)).isEmpty());
            } catch (ConditionTimeoutException timedOut) {
                // fall through to the assertion, which says what is missing and where it went
            }
            List<ReceivedSpan> trace = receiver.trace(traceId);
            String listing = trace.stream().map(s -> "  " + s).collect(Collectors.joining("\n"));
            System.out.println("live trace " + traceId + " (" + trace.size() + " spans):\n" + listing);
            K8sDir.write(K8sDir.WORK.resolve("live/trace-" + traceId + ".txt"), listing + "\n");

            List<String> missing = missing(trace);
            if (!missing.isEmpty()) {
                StringBuilder why = new StringBuilder("trace " + traceId + " lacks: " + missing + "\n");
                if (receiver.requests() == 0) {
                    why.append("no OTLP export reached 127.0.0.1:").append(port)
                            .append(" at all: were the services started with OTEL_EXPORTER_OTLP_ENDPOINT pointing here and"
                                    + " QUARKUS_OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf (./exam test live does)?\n");
                }
                for (String what : missing) {
                    List<ReceivedSpan> elsewhere = receiver.spans().stream()
                            .filter(s -> !s.traceId().equals(traceId) && EXPECTED.get(what).test(s)).toList();
                    if (!elsewhere.isEmpty()) {
                        why.append("  '").append(what).append("' arrived in another trace (the trace breaks before it): ")
                                .append(elsewhere.stream().map(s -> s.traceId() + " " + s).limit(3).toList()).append('\n');
                    }
                }
                why.append("spans of the trace:\n").append(listing).append("\nexport paths seen: ").append(receiver.paths());
                fail(why.toString());
            }

            // Not only one trace id: one tree. The submission's server span is the child of the caller's
            // span (our traceparent), and every expected span descends from it; the stream consumer's
            // parent is the outbox's producer span (the context travelled in the message).
            Map<String, ReceivedSpan> byId = new LinkedHashMap<>();
            trace.forEach(s -> byId.put(s.spanId(), s));
            ReceivedSpan root = trace.stream().filter(EXPECTED.values().iterator().next()).findFirst().orElseThrow();
            assertEquals(traceparent.substring(36, 52), root.parentSpanId(), "the server span continues the request's traceparent");
            for (Map.Entry<String, Predicate<ReceivedSpan>> e : EXPECTED.entrySet()) {
                ReceivedSpan span = trace.stream().filter(e.getValue()).findFirst().orElseThrow();
                List<String> chain = new ArrayList<>();
                ReceivedSpan at = span;
                while (at != null && at != root) {
                    chain.add(at.service() + " '" + at.name() + "'");
                    at = byId.get(at.parentSpanId());
                }
                assertEquals(root, at, e.getKey() + " does not descend from the submission's server span (chain "
                        + chain + "):\n" + listing);
            }
            ReceivedSpan consumer = trace.stream().filter(EXPECTED.get(CONSUMER)).findFirst().orElseThrow();
            ReceivedSpan parent = byId.get(consumer.parentSpanId());
            assertTrue(parent != null && parent.kind().equals("PRODUCER") && parent.service().equals("submission-service"),
                    "the stream consumer span's parent should be submission-service's producer span, is " + parent + ":\n" + listing);
        }
    }

    static List<String> missing(List<ReceivedSpan> trace) {
        List<String> missing = new ArrayList<>();
        EXPECTED.forEach((what, test) -> {
            if (trace.stream().noneMatch(test)) {
                missing.add(what);
            }
        });
        return missing;
    }
}
