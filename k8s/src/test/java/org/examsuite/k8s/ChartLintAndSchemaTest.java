package org.examsuite.k8s;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.marcnuri.helm.Helm;
import com.marcnuri.helm.LintResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** helm lint --strict, and values.schema.json (plus the chart's own checks) refusing bad values. */
class ChartLintAndSchemaTest {

    @Test
    void lintStrictPasses() {
        LintResult result = new Helm(K8sDir.CHART).lint().strict().call();
        assertFalse(result.isFailed(), () -> "helm lint --strict: " + String.join("\n", result.getMessages()));
    }

    static Stream<Arguments> badValues() {
        return Stream.of(
                Arguments.of("autoscaling.mode", "cpu", "/autoscaling/mode"),
                Arguments.of("autoscaling.targetRequestsPerSecondPerPod", 0, "/autoscaling/targetRequestsPerSecondPerPod"),
                Arguments.of("autoscaling.maxReplicas", "many", "/autoscaling/maxReplicas"),
                Arguments.of("autoscaling.minReplicas", 25, "must not exceed autoscaling.maxReplicas"),
                Arguments.of("autoscaling.keda.fallback.replicas", 21, "must lie between minReplicas"),
                Arguments.of("httpRoute.live.timeout", "forever", "/httpRoute/live/timeout"),
                Arguments.of("autoscaling.keda.fallback.replicas", 1, "must lie between minReplicas"),
                Arguments.of("metrics.prometheusRule.runbookBaseUrl", "docs/operations.md", "/metrics/prometheusRule/runbookBaseUrl"),
                Arguments.of("defaults.runAsUser", 0, "/defaults/runAsUser"),
                Arguments.of("image.flavor", "graal", "/image/flavor"),
                Arguments.of("services.answer.image.flavor", "jit", "/services/answer/image/flavor"),
                Arguments.of("services.answer.image.nativeDigest", "latest", "/services/answer/image/nativeDigest"),
                Arguments.of("defaults.native.runAsUser", 0, "/defaults/native/runAsUser"),
                Arguments.of("defaults.native.resources.limits.memory", "lots", "/defaults/native/resources/limits/memory"),
                Arguments.of("redis.mode", "sentinel", "/redis/mode"),
                Arguments.of("redis.urls[0]", "tcp://redis:6379", "/redis/urls/0"),
                Arguments.of("redis.waitReplicas", -1, "/redis/waitReplicas"),
                Arguments.of("redis.waitReplicas", "all", "/redis/waitReplicas"),
                Arguments.of("database.port", 70000, "/database/port"),
                Arguments.of("image.pullPolicy", "Sometimes", "/image/pullPolicy"),
                Arguments.of("ingress.host", "Exam_Host!", "/ingress/host"),
                Arguments.of("services.reporting.image.repository", "x", "reporting"),
                Arguments.of("replicaCount", 3, "replicaCount"),
                Arguments.of("defaults.resources.requests.memory", "lots", "/defaults/resources/requests/memory"),
                Arguments.of("otel.endpoint", "collector:4317", "/otel/endpoint"),
                Arguments.of("otel.samplingRatio", 2, "/otel/samplingRatio"),
                Arguments.of("networkPolicy.egress.enabled", true, "networkPolicy.egress.enabled needs networkPolicy.egress.to"),
                Arguments.of("shutdownTimeoutSeconds", -1, "/shutdownTimeoutSeconds"),
                Arguments.of("keys.existingSecret", "", "keys.inline.EXAM_CANDIDATE_PUBLIC_KEY is required"));
    }

    @Test
    void standaloneRedisWithSeveralUrlsIsRefused() {
        Exception error = assertThrows(Exception.class, () -> Chart.template(Chart.Values.defaults()
                .set("redis.urls[0]", "redis://redis-1:6379").set("redis.urls[1]", "redis://redis-2:6379")));
        assertTrue(error.getMessage().contains("redis.mode standalone takes one URL"), error.getMessage());
    }

    @ParameterizedTest(name = "{0}={1} is refused")
    @MethodSource("badValues")
    void badValuesAreRefused(String key, Object value, String expectedInMessage) {
        Exception error = assertThrows(Exception.class,
                () -> Chart.template(Chart.Values.defaults().set(key, value)), key + "=" + value + " rendered");
        assertTrue(error.getMessage().contains(expectedInMessage),
                () -> "message should name " + expectedInMessage + ": " + error.getMessage());
    }

    /**
     * helm lint --strict with the production-like values too. helm-java's lint takes no values file,
     * so it lints a copy of the chart whose values.yaml is values.yaml with ci/production-values.yaml
     * merged over it the way Helm merges a -f file (maps deep, lists and scalars replaced, null removes).
     */
    @Test
    void lintStrictPassesWithProductionValues() throws IOException {
        Path copy = K8sDir.workDir("lint-production").resolve("exam-suite");
        copyTree(K8sDir.CHART, copy);
        JsonNode merged = merge(Yaml.tree(K8sDir.read(K8sDir.CHART.resolve("values.yaml"))),
                Yaml.tree(K8sDir.read(K8sDir.PRODUCTION_VALUES)));
        K8sDir.write(copy.resolve("values.yaml"), new ObjectMapper(new YAMLFactory()).writeValueAsString(merged));
        LintResult result = new Helm(copy).lint().strict().call();
        assertFalse(result.isFailed(), () -> "helm lint --strict with ci/production-values.yaml: " + String.join("\n", result.getMessages()));
    }

    static JsonNode merge(JsonNode base, JsonNode over) {
        if (!(base instanceof ObjectNode baseObject) || !(over instanceof ObjectNode)) {
            return over;
        }
        ObjectNode result = baseObject.deepCopy();
        over.fields().forEachRemaining(e -> {
            if (e.getValue().isNull()) {
                result.remove(e.getKey());
            } else {
                result.set(e.getKey(), result.has(e.getKey()) ? merge(result.get(e.getKey()), e.getValue()) : e.getValue());
            }
        });
        return result;
    }

    private static void copyTree(Path from, Path to) throws IOException {
        if (Files.exists(to)) {
            try (Stream<Path> old = Files.walk(to)) {
                for (Path p : old.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
        try (Stream<Path> files = Files.walk(from)) {
            for (Path p : files.toList()) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target);
                }
            }
        }
    }

    @Test
    void mergeIsHelmsValuesMerge() {
        JsonNode merged = merge(Yaml.tree("{a: {b: 1, c: [1, 2], d: x}, e: 1}"), Yaml.tree("{a: {c: [3], d: null, f: 2}}"));
        assertEquals(Yaml.tree("{a: {b: 1, c: [3], f: 2}, e: 1}"), merged);
    }

    @Test
    void productionValuesAreValid() {
        assertFalse(Chart.template(Chart.Values.production()).isBlank());
    }
}
