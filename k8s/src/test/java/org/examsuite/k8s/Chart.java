package org.examsuite.k8s;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.marcnuri.helm.Helm;
import com.marcnuri.helm.TemplateCommand;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** Renders the chart with real Helm (helm-java) and finds objects in the result. */
final class Chart {

    static final String RELEASE = "exam-suite";
    static final String NAMESPACE = "exam";
    static final List<String> SERVICES = List.of("session-service", "answer-service", "submission-service", "grading-saga");

    private static final Map<String, Rendered> CACHE = new ConcurrentHashMap<>();

    private Chart() {
    }

    /** A render: values files (in order) and --set pairs. */
    record Values(List<Path> files, Map<String, Object> sets) {
        static Values defaults() {
            return new Values(List.of(), Map.of());
        }

        static Values production() {
            return new Values(List.of(K8sDir.PRODUCTION_VALUES), Map.of());
        }

        Values set(String key, Object value) {
            Map<String, Object> more = new LinkedHashMap<>(sets);
            more.put(key, value);
            return new Values(files, more);
        }

        Values file(Path file) {
            List<Path> more = new ArrayList<>(files);
            more.add(file);
            return new Values(more, sets);
        }
    }

    record Rendered(String yaml, List<ObjectNode> objects) {
        List<ObjectNode> ofKind(String kind) {
            return objects.stream().filter(o -> kind.equals(o.path("kind").asText())).toList();
        }

        Optional<ObjectNode> find(String kind, String name) {
            return ofKind(kind).stream().filter(o -> name.equals(o.path("metadata").path("name").asText())).findFirst();
        }

        ObjectNode get(String kind, String name) {
            return find(kind, name).orElseThrow(() -> new AssertionError("no " + kind + " " + name + " in the render"));
        }
    }

    /** Renders (cached per values: Helm runs in-process through JNI and takes ~0.5 s a render). */
    static Rendered render(Values values) {
        return CACHE.computeIfAbsent(values.toString(), k -> {
            String yaml = template(values);
            return new Rendered(yaml, Yaml.documents(yaml));
        });
    }

    /** Renders without the cache; throws IllegalStateException with Helm's message on failure. */
    static String template(Values values) {
        return template(K8sDir.CHART, values);
    }

    private static String template(java.nio.file.Path chart, Values values) {
        TemplateCommand command = new Helm(chart).template()
                .withName(RELEASE)
                .withNamespace(NAMESPACE)
                .withKubeVersion("1.33.0");
        values.files().forEach(command::withValuesFile);
        values.sets().forEach(command::set);
        return command.call();
    }

    /** Stands for {@code helm.sh/hook} in {@link #renderTests}: the hooks {@link #template} leaves out, as objects. */
    static final String HOOK_STAND_IN = "exam-suite.test/hook";

    /**
     * The chart rendered with its `helm test` hooks among the objects: helm-java renders (and reports) no hooks, so a
     * copy of the chart whose templates/tests/ name their hook annotation {@link #HOOK_STAND_IN} is rendered instead.
     */
    static Rendered renderTests(Values values) {
        try {
            java.nio.file.Path copy = java.nio.file.Files.createTempDirectory("chart-tests").resolve("exam-suite");
            try (var files = java.nio.file.Files.walk(K8sDir.CHART)) {
                for (java.nio.file.Path file : files.toList()) {
                    java.nio.file.Path target = copy.resolve(K8sDir.CHART.relativize(file).toString());
                    if (java.nio.file.Files.isDirectory(file)) {
                        java.nio.file.Files.createDirectories(target);
                    } else if (file.getParent().getFileName().toString().equals("tests")) {
                        java.nio.file.Files.writeString(target, java.nio.file.Files.readString(file)
                                .replace("helm.sh/hook:", HOOK_STAND_IN + ":"));
                    } else {
                        java.nio.file.Files.copy(file, target);
                    }
                }
            }
            String yaml = template(copy, values);
            try (var files = java.nio.file.Files.walk(copy.getParent())) {
                for (java.nio.file.Path file : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    java.nio.file.Files.delete(file);
                }
            }
            return new Rendered(yaml, Yaml.documents(yaml));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    static String fullName(String service) {
        return RELEASE + "-" + service;
    }
}
