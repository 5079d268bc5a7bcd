package org.examsuite.k8s;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Where the module's files are: the chart, the kustomize tree, the monitoring tests, target/. */
final class K8sDir {

    static final Path ROOT = Path.of(System.getProperty("k8s.dir", ".")).toAbsolutePath().normalize();
    static final Path WORK = Path.of(System.getProperty("k8s.work", ROOT.resolve("target").toString()));
    static final Path CHART = ROOT.resolve("chart/exam-suite");
    static final Path PRODUCTION_VALUES = CHART.resolve("ci/production-values.yaml");
    static final Path RULES = CHART.resolve("files/prometheus-rules.yaml");
    static final Path DASHBOARD = CHART.resolve("files/grafana-dashboard.json");
    static final Path ADAPTER_RULES = CHART.resolve("files/prometheus-adapter-rules.yaml");
    static final Path RULE_TESTS = ROOT.resolve("monitoring/prometheus-rules.test.yaml");
    static final Path EXPORTED_METRICS = ROOT.resolve("monitoring/exported-metrics.txt");
    static final Path KUSTOMIZE = ROOT.resolve("kustomize");

    private K8sDir() {
    }

    static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Path write(Path file, String content) {
        try {
            Files.createDirectories(file.getParent());
            return Files.writeString(file, content, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Path workDir(String name) {
        try {
            return Files.createDirectories(WORK.resolve(name));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
