package org.examsuite.k8s;

import static org.examsuite.k8s.Chart.SERVICES;
import static org.examsuite.k8s.Chart.fullName;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Requests-per-second scaling, each service with its own bounds and grading-saga also on its stream backlog: KEDA by
 * default, a plain HPA on the adapter's pods metric behind a switch.
 */
class AutoscalingTest {

    @Test
    void kedaScalesEachServiceOnItsRequestRatePerPod() {
        Chart.Rendered rendered = Chart.render(Chart.Values.defaults());
        for (String service : SERVICES) {
            JsonNode spec = rendered.get("ScaledObject", fullName(service)).path("spec");
            assertEquals(fullName(service), spec.at("/scaleTargetRef/name").asText());
            assertEquals(2, spec.path("minReplicaCount").asInt());
            assertEquals(20, spec.path("maxReplicaCount").asInt());
            JsonNode trigger = spec.at("/triggers/0");
            assertEquals("prometheus", trigger.path("type").asText());
            assertEquals("AverageValue", trigger.path("metricType").asText(), "total rate / replicas = per-pod rate");
            assertEquals("150", trigger.at("/metadata/threshold").asText());
            assertEquals("sum(rate(http_server_requests_seconds_count{namespace=\"exam\",service=\""
                    + fullName(service) + "\"}[1m]))", trigger.at("/metadata/query").asText());
            JsonNode behavior = spec.at("/advanced/horizontalPodAutoscalerConfig/behavior");
            assertEquals(0, behavior.at("/scaleUp/stabilizationWindowSeconds").asInt(), "fast up");
            assertEquals(300, behavior.at("/scaleDown/stabilizationWindowSeconds").asInt(), "slow down");
            assertEquals(10, behavior.at("/scaleDown/policies/0/value").asInt());
        }
    }

    @Test
    void gradingSagaAlsoScalesOnItsStreamBacklog() {
        Chart.Rendered rendered = Chart.render(Chart.Values.defaults());
        JsonNode triggers = rendered.get("ScaledObject", fullName("grading-saga")).at("/spec/triggers");
        assertEquals(2, triggers.size(), triggers.toString());
        JsonNode stream = triggers.get(1);
        assertEquals("redis-streams", stream.path("type").asText());
        assertEquals("AverageValue", stream.path("metricType").asText(), "pending entries per pod");
        assertEquals("redis:6379", stream.at("/metadata/address").asText(), "host:port of redis.urls");
        assertEquals("stream:{papers}", stream.at("/metadata/stream").asText());
        assertEquals("grading", stream.at("/metadata/consumerGroup").asText());
        assertEquals("50", stream.at("/metadata/pendingEntriesCount").asText());
        assertTrue(stream.path("authenticationRef").isMissingNode(), "no Redis password, no authentication");
        assertTrue(rendered.ofKind("TriggerAuthentication").isEmpty());
        for (String service : List.of("session-service", "answer-service", "submission-service")) {
            assertEquals(1, rendered.get("ScaledObject", fullName(service)).at("/spec/triggers").size(), service + ": requests only");
        }
        Chart.Rendered off = Chart.render(Chart.Values.defaults().set("autoscaling.services.grading.streamPendingEntriesPerPod", 0));
        assertEquals(1, off.get("ScaledObject", fullName("grading-saga")).at("/spec/triggers").size(), "0 turns it off");
    }

    @Test
    void onARedisClusterWithAPasswordTheStreamTriggerUsesTheSeedsAndTheCredentialsSecret() {
        Chart.Rendered rendered = Chart.render(Chart.Values.production());
        JsonNode stream = rendered.get("ScaledObject", fullName("grading-saga")).at("/spec/triggers/1");
        assertEquals("redis-cluster-streams", stream.path("type").asText());
        assertEquals("redis-cluster-0.redis-cluster.redis.svc:6379,redis-cluster-1.redis-cluster.redis.svc:6379,"
                + "redis-cluster-2.redis-cluster.redis.svc:6379", stream.at("/metadata/addresses").asText());
        assertEquals("exam-suite-redis", stream.at("/authenticationRef/name").asText());
        JsonNode ref = rendered.get("TriggerAuthentication", "exam-suite-redis").at("/spec/secretTargetRef/0");
        assertEquals("password", ref.path("parameter").asText());
        assertEquals("exam-suite-credentials", ref.path("name").asText());
        assertEquals("EXAM_REDIS_PASSWORD", ref.path("key").asText(), "the key the services read their password from");
    }

    @Test
    void eachServiceHasItsOwnBoundsAndThreshold() {
        Chart.Rendered rendered = Chart.render(Chart.Values.defaults().set("autoscaling.services.submission.minReplicas", 4)
                .set("autoscaling.services.submission.maxReplicas", 40)
                .set("autoscaling.services.submission.targetRequestsPerSecondPerPod", 60)
                .set("autoscaling.services.answer.maxReplicas", 4));
        JsonNode submission = rendered.get("ScaledObject", fullName("submission-service")).path("spec");
        assertEquals(4, submission.path("minReplicaCount").asInt());
        assertEquals(40, submission.path("maxReplicaCount").asInt());
        assertEquals("60", submission.at("/triggers/0/metadata/threshold").asText());
        JsonNode answer = rendered.get("ScaledObject", fullName("answer-service")).path("spec");
        assertEquals(2, answer.path("minReplicaCount").asInt(), "what a service leaves out comes from the global");
        assertEquals(4, answer.path("maxReplicaCount").asInt());
        assertEquals(4, answer.at("/fallback/replicas").asInt(), "the fallback stays within the service's bounds");
        JsonNode session = rendered.get("ScaledObject", fullName("session-service")).path("spec");
        assertEquals(20, session.path("maxReplicaCount").asInt());
        assertEquals("150", session.at("/triggers/0/metadata/threshold").asText());
        HorizontalPodAutoscaler hpa = Yaml.convert(Chart.render(Chart.Values.defaults().set("autoscaling.mode", "hpa")
                .set("autoscaling.services.submission.maxReplicas", 40)).get("HorizontalPodAutoscaler", fullName("submission-service")),
                HorizontalPodAutoscaler.class);
        assertEquals(40, hpa.getSpec().getMaxReplicas(), "the HPA too");
    }

    @Test
    void kedaHoldsTheFallbackReplicasWhilePrometheusFails() {
        for (String service : SERVICES) {
            JsonNode fallback = Chart.render(Chart.Values.defaults()).get("ScaledObject", fullName(service)).at("/spec/fallback");
            assertEquals(3, fallback.path("failureThreshold").asInt());
            assertEquals(6, fallback.path("replicas").asInt(), "between min 2 and max 20: no scale-in on an outage");
        }
        JsonNode fallback = Chart.render(Chart.Values.production().set("autoscaling.keda.fallback.replicas", 12))
                .get("ScaledObject", fullName("answer-service")).at("/spec/fallback");
        assertEquals(12, fallback.path("replicas").asInt());
    }

    @Test
    void thresholdAndBoundsAreConfigurable() {
        JsonNode spec = Chart.render(Chart.Values.production()).get("ScaledObject", fullName("answer-service")).path("spec");
        assertEquals("200", spec.at("/triggers/0/metadata/threshold").asText());
        assertEquals(3, spec.path("minReplicaCount").asInt());
        assertEquals(30, spec.path("maxReplicaCount").asInt());
        assertEquals("http://kube-prometheus-stack-prometheus.monitoring.svc:9090",
                spec.at("/triggers/0/metadata/serverAddress").asText());
    }

    @Test
    void hpaModeUsesTheAdapterPodsMetricWithTheSameBehaviour() {
        Chart.Rendered rendered = Chart.render(Chart.Values.defaults().set("autoscaling.mode", "hpa")
                .set("autoscaling.hpa.adapterRulesConfigMap", true));
        assertTrue(rendered.ofKind("ScaledObject").isEmpty());
        JsonNode adapterRule = Yaml.tree(K8sDir.read(K8sDir.ADAPTER_RULES)).at("/rules/0");
        for (String service : SERVICES) {
            HorizontalPodAutoscaler hpa = Yaml.convert(rendered.get("HorizontalPodAutoscaler", fullName(service)),
                    HorizontalPodAutoscaler.class);
            assertEquals(fullName(service), hpa.getSpec().getScaleTargetRef().getName());
            assertEquals(2, hpa.getSpec().getMinReplicas());
            assertEquals(20, hpa.getSpec().getMaxReplicas());
            var metric = hpa.getSpec().getMetrics().get(0);
            assertEquals("Pods", metric.getType());
            assertEquals(adapterRule.at("/name/as").asText(), metric.getPods().getMetric().getName(),
                    "the HPA asks for the metric the adapter rule serves");
            assertEquals("150", metric.getPods().getTarget().getAverageValue().toString());
            assertEquals(0, hpa.getSpec().getBehavior().getScaleUp().getStabilizationWindowSeconds());
            assertEquals(300, hpa.getSpec().getBehavior().getScaleDown().getStabilizationWindowSeconds());
        }
        String shipped = rendered.get("ConfigMap", "exam-suite-prometheus-adapter-rules").at("/data/rules.yaml").asText();
        assertEquals(Yaml.tree(K8sDir.read(K8sDir.ADAPTER_RULES)), Yaml.tree(shipped), "the shipped rule is the documented file");
    }
}
