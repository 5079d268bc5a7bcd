package org.examsuite.k8s;

import static org.examsuite.k8s.Chart.SERVICES;
import static org.examsuite.k8s.Chart.fullName;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;

/** `helm test`'s Pod (templates/tests/smoke.yaml): a test hook reaching every service, admitted by their NetworkPolicies. */
class HelmTestPodTest {
    static final String POD = "exam-suite-smoke-test";
    static final Map<String, Integer> PORTS = Map.of("session-service", 8081, "answer-service", 8082,
            "submission-service", 8083, "grading-saga", 8084);

    static JsonNode pod(Chart.Values values) {
        return Chart.renderTests(values).find("Pod", POD).orElse(null);
    }

    /** The shell script the Pod runs. */
    static String script(JsonNode pod) {
        return pod.path("spec").path("containers").get(0).path("args").get(0).asText();
    }

    @Test
    void aTestHookChecksEveryServicesReadinessAndAuthDecision() {
        JsonNode pod = pod(Chart.Values.defaults());
        assertTrue(pod != null, "a Pod " + POD + " among the hooks");
        assertEquals("test", pod.path("metadata").path("annotations").path(Chart.HOOK_STAND_IN).asText(), "a helm.sh/hook: test");
        assertTrue(Chart.render(Chart.Values.defaults()).find("Pod", POD).isEmpty(), "a hook, not part of the release");
        assertEquals("Never", pod.path("spec").path("restartPolicy").asText());
        assertTrue(pod.path("spec").path("securityContext").path("runAsNonRoot").asBoolean());
        String script = script(pod);
        for (String service : SERVICES) {
            String base = "http://" + fullName(service) + ":" + PORTS.get(service);
            assertTrue(script.contains(base + "/q/health/ready"), service + " readiness: " + script);
            assertTrue(script.contains("\"" + service + " without a token\" \"401 application/problem+json\""), service);
        }
    }

    @Test
    void everyServicesNetworkPolicyAdmitsThePodAndOnlyWhileTestsAreOn() {
        Chart.Rendered on = Chart.render(Chart.Values.defaults());
        Chart.Rendered off = Chart.render(Chart.Values.defaults().set("tests.enabled", false));
        for (String service : SERVICES) {
            assertTrue(admitsSmokeTest(on, service), service);
            assertFalse(admitsSmokeTest(off, service), service);
        }
        assertTrue(pod(Chart.Values.defaults().set("tests.enabled", false)) == null);
    }

    private static boolean admitsSmokeTest(Chart.Rendered rendered, String service) {
        JsonNode from = rendered.get("NetworkPolicy", fullName(service)).path("spec").path("ingress").get(0).path("from");
        return StreamSupport.stream(from.spliterator(), false).anyMatch(peer -> "smoke-test".equals(
                peer.path("podSelector").path("matchLabels").path("app.kubernetes.io/component").asText()));
    }
}
