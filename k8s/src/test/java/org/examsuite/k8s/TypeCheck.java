package org.examsuite.k8s;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Type-checks Kubernetes objects and the Grafana dashboard with {@code tsc --noEmit --strict}
 * against the npm packages kubernetes-models (+ Gateway API, KEDA, prometheus-operator) and @grafana/schema.
 *
 * <p>Each object becomes an object literal assigned to a variable of its API type. TypeScript's
 * excess-property check rejects every unknown field at any depth, and the types reject wrong
 * types and missing required fields: the "strict" schema validation that kubectl's server-side
 * field validation would do, without a cluster. The npm packages are installed by this class
 * (npm ci from src/test/node/package-lock.json into target/node).
 */
final class TypeCheck {

    /** apiVersion/kind → module and type of its TypeScript model. */
    private static final Map<String, String[]> MODELS = Map.ofEntries(
            model("apps/v1", "Deployment", "kubernetes-models/apps/v1/Deployment", "IDeployment"),
            model("v1", "Service", "kubernetes-models/v1/Service", "IService"),
            model("v1", "ConfigMap", "kubernetes-models/v1/ConfigMap", "IConfigMap"),
            model("v1", "Secret", "kubernetes-models/v1/Secret", "ISecret"),
            model("v1", "ServiceAccount", "kubernetes-models/v1/ServiceAccount", "IServiceAccount"),
            model("networking.k8s.io/v1", "Ingress", "kubernetes-models/networking.k8s.io/v1/Ingress", "IIngress"),
            model("networking.k8s.io/v1", "NetworkPolicy", "kubernetes-models/networking.k8s.io/v1/NetworkPolicy", "INetworkPolicy"),
            model("policy/v1", "PodDisruptionBudget", "kubernetes-models/policy/v1/PodDisruptionBudget", "IPodDisruptionBudget"),
            model("autoscaling/v2", "HorizontalPodAutoscaler", "kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler", "IHorizontalPodAutoscaler"),
            model("gateway.networking.k8s.io/v1", "HTTPRoute", "@kubernetes-models/gateway-api/gateway.networking.k8s.io/v1/HTTPRoute", "IHTTPRoute"),
            model("keda.sh/v1alpha1", "ScaledObject", "@kubernetes-models/keda/keda.sh/v1alpha1/ScaledObject", "IScaledObject"),
            model("keda.sh/v1alpha1", "TriggerAuthentication", "@kubernetes-models/keda/keda.sh/v1alpha1/TriggerAuthentication", "ITriggerAuthentication"),
            model("monitoring.coreos.com/v1", "ServiceMonitor", "@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/ServiceMonitor", "IServiceMonitor"),
            model("monitoring.coreos.com/v1", "PrometheusRule", "@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/PrometheusRule", "IPrometheusRule"));

    private static Map.Entry<String, String[]> model(String apiVersion, String kind, String module, String type) {
        return Map.entry(apiVersion + "/" + kind, new String[] {module, type});
    }

    record Result(boolean ok, String output) {
    }

    private TypeCheck() {
    }

    /** Type-checks the objects (each named for messages) and, if given, a dashboard. */
    static synchronized Result check(String project, Map<String, JsonNode> objects, JsonNode dashboard) {
        Path tools = install();
        Path dir = tools.resolve(project);
        try {
            if (Files.exists(dir)) {
                try (var files = Files.list(dir)) {
                    for (Path f : files.toList()) {
                        Files.delete(f);
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<String> files = new ArrayList<>();
        int index = 0;
        for (var entry : objects.entrySet()) {
            JsonNode object = entry.getValue();
            String key = object.path("apiVersion").asText() + "/" + object.path("kind").asText();
            String[] model = MODELS.get(key);
            if (model == null) {
                throw new AssertionError(entry.getKey() + ": no TypeScript model known for " + key
                        + " (add it to TypeCheck.MODELS)");
            }
            String file = String.format("o%03d.ts", index++);
            K8sDir.write(dir.resolve(file), "// " + entry.getKey() + "\n"
                    + "import type { " + model[1] + " } from \"" + model[0] + "\";\n"
                    + "export const object: " + model[1] + " = " + Yaml.json(object) + ";\n");
            files.add(file);
        }
        if (dashboard != null) {
            K8sDir.write(dir.resolve("dashboard.ts"), "import type { Dashboard } from \"@grafana/schema\";\n"
                    + "export const dashboard: Dashboard = " + Yaml.json(dashboard) + ";\n");
            files.add("dashboard.ts");
        }
        K8sDir.write(dir.resolve("tsconfig.json"), """
                {"compilerOptions": {"strict": true, "noEmit": true, "module": "nodenext",
                  "moduleResolution": "nodenext", "target": "es2022", "skipLibCheck": true,
                  "types": []},
                 "files": %s}
                """.formatted(Yaml.JSON.valueToTree(files)));
        Path node = Tools.require("node", "Node.js 20+ (Debian: apt-get install -y nodejs npm)");
        Tools.Result result = Tools.run(dir, 180, List.of(node.toString(),
                tools.resolve("node_modules/typescript/bin/tsc").toString(), "-p", "tsconfig.json"));
        return new Result(result.exitCode() == 0, annotate(dir, result.output()));
    }

    /** tsc names files o012.ts; put the object's name next to each error. */
    private static String annotate(Path dir, String output) {
        Map<String, String> names = new LinkedHashMap<>();
        StringBuilder out = new StringBuilder();
        for (String line : output.split("\n")) {
            int paren = line.indexOf(".ts(");
            if (paren > 0) {
                String file = line.substring(0, paren + 3);
                String name = names.computeIfAbsent(file, f -> {
                    String text = K8sDir.read(dir.resolve(f));
                    return text.startsWith("//") ? text.substring(3, text.indexOf('\n')) : f;
                });
                out.append('[').append(name).append("] ");
            }
            out.append(line).append('\n');
        }
        return out.toString();
    }

    /** npm ci into target/node when the lock file changed (or on a fresh checkout). */
    private static Path install() {
        Path source = K8sDir.ROOT.resolve("src/test/node");
        Path tools = K8sDir.workDir("node");
        String lock = K8sDir.read(source.resolve("package-lock.json"));
        Path stamp = tools.resolve("node_modules/.exam-suite-lock");
        if (Files.exists(stamp) && K8sDir.read(stamp).equals(lock)) {
            return tools;
        }
        K8sDir.write(tools.resolve("package.json"), K8sDir.read(source.resolve("package.json")));
        K8sDir.write(tools.resolve("package-lock.json"), lock);
        Path npm = Tools.require("npm", "Node.js 20+ with npm (Debian: apt-get install -y nodejs npm)");
        Tools.Result result = Tools.run(tools, 300,
                List.of(npm.toString(), "ci", "--no-audit", "--no-fund", "--loglevel=error"));
        if (result.exitCode() != 0) {
            throw new AssertionError("npm ci of the type-check tools (" + source.resolve("package.json")
                    + ") failed; the npm registry must be reachable:\n" + result.output());
        }
        K8sDir.write(stamp, lock);
        return tools;
    }
}
