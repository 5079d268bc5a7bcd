package org.examsuite.k8s;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Every rendered object against the Kubernetes (and KEDA / prometheus-operator) API types with
 * unknown fields rejected, and the Grafana dashboard against @grafana/schema: one tsc run.
 */
class KubernetesSchemaTest {

    /** Every kind the chart can render, across the value sets that switch things on and off. */
    static Map<String, JsonNode> allRenderedObjects() {
        Map<String, JsonNode> objects = new LinkedHashMap<>();
        Map<String, Chart.Values> sets = new LinkedHashMap<>();
        sets.put("default", Chart.Values.defaults());
        sets.put("production", Chart.Values.production());
        sets.put("hpa", Chart.Values.defaults().set("autoscaling.mode", "hpa").set("autoscaling.hpa.adapterRulesConfigMap", true));
        sets.put("gateway-api + frontend", Chart.Values.defaults().set("httpRoute.enabled", true).set("ingress.enabled", false)
                .set("frontend.enabled", true).set("networkPolicy.egress.enabled", true).set("networkPolicy.egress.to[0].ipBlock.cidr", "10.0.5.0/24"));
        sets.put("inline-secrets", inlineSecrets());
        sets.forEach((set, values) -> {
            for (ObjectNode object : Chart.render(values).objects()) {
                objects.put(set + ": " + object.path("kind").asText() + " " + object.at("/metadata/name").asText(), object);
            }
        });
        return objects;
    }

    private static Chart.Values inlineSecrets() {
        Chart.Values values = Chart.Values.defaults().set("keys.existingSecret", "").set("database.password", "pw");
        for (String key : List.of("EXAM_CANDIDATE_PUBLIC_KEY", "EXAM_CANDIDATE_PRIVATE_KEY", "EXAM_OPERATOR_PUBLIC_KEY",
                "EXAM_SESSION_SERVICE_PUBLIC_KEY", "EXAM_SESSION_SERVICE_PRIVATE_KEY", "EXAM_ANSWER_SERVICE_PUBLIC_KEY",
                "EXAM_ANSWER_SERVICE_PRIVATE_KEY", "EXAM_SUBMISSION_SERVICE_PUBLIC_KEY", "EXAM_SUBMISSION_SERVICE_PRIVATE_KEY",
                "EXAM_GRADING_SAGA_PUBLIC_KEY", "EXAM_GRADING_SAGA_PRIVATE_KEY", "EXAM_PAPER_PRIVATE_KEY", "EXAM_PAPER_PUBLIC_KEY",
                "EXAM_ARCHIVE_PRIVATE_KEY", "EXAM_ARCHIVE_PUBLIC_KEY")) {
            values = values.set("keys.inline." + key, "pem");
        }
        return values;
    }

    @Test
    void everyRenderedObjectAndTheDashboardTypeCheck() {
        Map<String, JsonNode> objects = allRenderedObjects();
        assertTrue(objects.keySet().stream().anyMatch(k -> k.contains("HorizontalPodAutoscaler")));
        assertTrue(objects.keySet().stream().anyMatch(k -> k.contains("ScaledObject")));
        assertTrue(objects.keySet().stream().anyMatch(k -> k.contains("Secret")));
        TypeCheck.Result result = TypeCheck.check("chart", objects, Yaml.tree(K8sDir.read(K8sDir.DASHBOARD)));
        assertTrue(result.ok(), () -> "tsc --strict found schema violations:\n" + result.output());
    }

    @Test
    void theCheckRejectsUnknownFieldsAndWrongTypes() {
        ObjectNode deployment = Chart.render(Chart.Values.defaults()).get("Deployment", Chart.fullName("answer-service")).deepCopy();
        ((ObjectNode) deployment.at("/spec/template/spec/containers/0")).put("readOnlyRootFileSystem", true);
        ObjectNode scaledObject = Chart.render(Chart.Values.defaults()).get("ScaledObject", Chart.fullName("answer-service")).deepCopy();
        ((ObjectNode) scaledObject.path("spec")).put("maxReplicaCount", "20");
        ObjectNode dashboard = (ObjectNode) Yaml.tree(K8sDir.read(K8sDir.DASHBOARD)).deepCopy();
        ((ObjectNode) dashboard.at("/panels/1")).put("datasourceUid", "x");
        TypeCheck.Result result = TypeCheck.check("negative",
                Map.of("misspelt field", deployment, "string for an integer", scaledObject), dashboard);
        assertFalse(result.ok());
        assertTrue(result.output().contains("'\"readOnlyRootFileSystem\"' does not exist"), result.output());
        assertTrue(result.output().contains("[string for an integer]"), result.output());
        assertTrue(result.output().contains("'\"datasourceUid\"' does not exist"), result.output());
    }
}
