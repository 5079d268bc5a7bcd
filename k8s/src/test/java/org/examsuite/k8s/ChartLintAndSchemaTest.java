package org.examsuite.k8s;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.marcnuri.helm.Helm;
import com.marcnuri.helm.LintResult;
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
                Arguments.of("defaults.runAsUser", 0, "/defaults/runAsUser"),
                Arguments.of("redis.mode", "sentinel", "/redis/mode"),
                Arguments.of("redis.urls[0]", "tcp://redis:6379", "/redis/urls/0"),
                Arguments.of("database.port", 70000, "/database/port"),
                Arguments.of("image.pullPolicy", "Sometimes", "/image/pullPolicy"),
                Arguments.of("ingress.host", "Exam_Host!", "/ingress/host"),
                Arguments.of("services.reporting.image.repository", "x", "reporting"),
                Arguments.of("replicaCount", 3, "replicaCount"),
                Arguments.of("defaults.resources.requests.memory", "lots", "/defaults/resources/requests/memory"),
                Arguments.of("otel.endpoint", "collector:4317", "/otel/endpoint"),
                Arguments.of("networkPolicy.egress.enabled", true, "networkPolicy.egress.enabled needs networkPolicy.egress.to"),
                Arguments.of("shutdownTimeoutSeconds", -1, "/shutdownTimeoutSeconds"),
                Arguments.of("keys.existingSecret", "", "keys.inline.EXAM_CANDIDATE_PUBLIC_KEY is required"));
    }

    @ParameterizedTest(name = "{0}={1} is refused")
    @MethodSource("badValues")
    void badValuesAreRefused(String key, Object value, String expectedInMessage) {
        Exception error = assertThrows(Exception.class,
                () -> Chart.template(Chart.Values.defaults().set(key, value)), key + "=" + value + " rendered");
        assertTrue(error.getMessage().contains(expectedInMessage),
                () -> "message should name " + expectedInMessage + ": " + error.getMessage());
    }

    @Test
    void productionValuesAreValid() {
        assertFalse(Chart.template(Chart.Values.production()).isBlank());
    }
}
