package org.examsuite.k8s;

import static org.examsuite.k8s.Chart.SERVICES;
import static org.examsuite.k8s.Chart.fullName;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * quarkus-kubernetes earns its place: each service's build writes the Deployment Quarkus derives from the service itself
 * (target/kubernetes/kubernetes.yml: its HTTP port, its health endpoints), and the chart's Deployment must agree with
 * it — a changed port or probe path in a service fails here, not in a cluster. The reactor builds this module after the
 * four services.
 */
class QuarkusManifestsTest {
    private static final List<String> PROBES = List.of("startupProbe", "livenessProbe", "readinessProbe");

    @Test
    void theChartsDeploymentsServeThePortAndProbesEachServiceDeclares() {
        Chart.Rendered chart = Chart.render(Chart.Values.defaults());
        for (String service : SERVICES) {
            Path generated = K8sDir.ROOT.resolveSibling(service).resolve("target/kubernetes/kubernetes.yml");
            assertTrue(Files.isRegularFile(generated), generated + " is missing: the service's package phase writes it (./mvnw package -pl " + service + ")");
            JsonNode quarkus = Yaml.documents(K8sDir.read(generated)).stream().filter(o -> o.path("kind").asText().equals("Deployment"))
                    .findFirst().orElseThrow().at("/spec/template/spec/containers/0");
            JsonNode ours = chart.get("Deployment", fullName(service)).at("/spec/template/spec/containers/0");

            assertEquals(declared(quarkus.path("ports")), declared(ours.path("ports")), service + ": container ports by name");
            Map<String, Integer> ports = declared(ours.path("ports"));
            for (String probe : PROBES) {
                JsonNode q = quarkus.at("/" + probe + "/httpGet");
                JsonNode c = ours.at("/" + probe + "/httpGet");
                assertEquals(q.path("path").asText(), c.path("path").asText(), service + " " + probe + " path");
                int port = c.path("port").isInt() ? c.path("port").asInt() : ports.getOrDefault(c.path("port").asText(), -1);
                assertEquals(q.path("port").asInt(), port, service + " " + probe + " port");
            }
        }
    }

    private static Map<String, Integer> declared(JsonNode ports) {
        Map<String, Integer> byName = new TreeMap<>();
        ports.forEach(p -> byName.put(p.path("name").asText(), p.path("containerPort").asInt()));
        return byName;
    }
}
