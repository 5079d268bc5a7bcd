package org.examsuite.k8s;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every metric that the alerts, the dashboard, the KEDA query and the adapter rule read is one the
 * services export (monitoring/exported-metrics.txt, from docs/api.md §5 and Micrometer's HTTP
 * server metrics) or a series the rules file records itself. The live check of that list
 * against the running services' /q/metrics is LiveMetricNamesTest (./exam test live).
 */
class MetricNamesTest {

    static Set<String> exported() {
        Set<String> names = new TreeSet<>();
        for (String line : K8sDir.read(K8sDir.EXPORTED_METRICS).split("\n")) {
            String trimmed = line.strip();
            if (!trimmed.isEmpty() && !trimmed.startsWith("#")) {
                names.add(trimmed.split("\\s+")[0]);
            }
        }
        return names;
    }

    /** Every PromQL expression we ship, by where it is. */
    static Map<String, String> expressions() {
        Map<String, String> exprs = new LinkedHashMap<>();
        for (JsonNode group : Yaml.tree(K8sDir.read(K8sDir.RULES)).path("groups")) {
            for (JsonNode rule : group.path("rules")) {
                exprs.put("rule " + rule.path(rule.has("alert") ? "alert" : "record").asText(), rule.path("expr").asText());
            }
        }
        for (JsonNode panel : Yaml.tree(K8sDir.read(K8sDir.DASHBOARD)).path("panels")) {
            for (JsonNode target : panel.path("targets")) {
                exprs.put("panel " + panel.path("title").asText() + " " + target.path("refId").asText(), target.path("expr").asText());
            }
        }
        for (JsonNode variable : Yaml.tree(K8sDir.read(K8sDir.DASHBOARD)).at("/templating/list")) {
            String query = variable.path("query").asText();
            if (query.startsWith("label_values(")) {
                exprs.put("variable " + variable.path("name").asText(),
                        query.substring("label_values(".length(), query.lastIndexOf(',')));
            }
        }
        for (var scaled : Chart.render(Chart.Values.defaults()).ofKind("ScaledObject")) {
            exprs.put("ScaledObject " + scaled.at("/metadata/name").asText(), scaled.at("/spec/triggers/0/metadata/query").asText());
        }
        JsonNode adapter = Yaml.tree(K8sDir.read(K8sDir.ADAPTER_RULES)).at("/rules/0");
        exprs.put("adapter seriesQuery", adapter.path("seriesQuery").asText());
        return exprs;
    }

    static Set<String> recorded() {
        Set<String> names = new TreeSet<>();
        for (JsonNode group : Yaml.tree(K8sDir.read(K8sDir.RULES)).path("groups")) {
            group.path("rules").forEach(r -> {
                if (r.has("record")) {
                    names.add(r.path("record").asText());
                }
            });
        }
        return names;
    }

    @Test
    void everyQueriedMetricIsExportedOrRecorded() {
        Set<String> known = new TreeSet<>(exported());
        known.addAll(recorded());
        known.add("up"); // written by Prometheus itself for every scrape target
        Map<String, Set<String>> unknown = new LinkedHashMap<>();
        expressions().forEach((where, expr) -> {
            Set<String> names = PromQlNames.metricNames(expr);
            assertTrue(!names.isEmpty(), where + " reads no metric: " + expr);
            names.removeAll(known);
            if (!names.isEmpty()) {
                unknown.put(where, names);
            }
        });
        assertEquals(Map.of(), unknown, "metrics no service exports (monitoring/exported-metrics.txt)");
    }

    @Test
    void everyDesignMetricIsUsedSomewhere() {
        Set<String> used = new TreeSet<>();
        expressions().values().forEach(e -> used.addAll(PromQlNames.metricNames(e)));
        for (String design : Set.of("http_server_requests_seconds_count", "exam_autosave_changes_total",
                "exam_answer_persist_lag_seconds_bucket", "exam_answer_persist_backlog_age_seconds", "exam_submissions_total",
                "exam_sessions_active", "exam_saga_total", "exam_submission_duration_seconds_bucket",
                "exam_saga_step_duration_seconds_bucket")) {
            assertTrue(used.contains(design), design + " (docs/api.md §5) is on no panel and in no alert");
        }
    }

    /**
     * exam_sessions_active is counted in PostgreSQL, the same suite-wide number on every
     * session-service replica: a sum over replicas would count each session once per replica.
     */
    @Test
    void theSuiteWideSessionGaugeIsNeverSummedOverReplicas() {
        Pattern summed = Pattern.compile("(sum|count)\\s*(by\\s*\\([^)]*\\)\\s*)?\\(\\s*exam_sessions_active\\b");
        expressions().forEach((where, expr) -> assertTrue(!summed.matcher(expr).find(),
                where + " sums exam_sessions_active over replicas (take max): " + expr));
    }

    /**
     * The static half of "the services really export them": every exam_* metric in the list is
     * registered as a Micrometer meter in the source of the service the list names. (Micrometer's
     * Prometheus names: counter a.b → a_b_total, timer a.b → a_b_seconds_*, gauge a.b → a_b.)
     * The live half (/q/metrics of the running suite) is LiveMetricNamesTest (./exam test live).
     */
    @Test
    void everyExamMetricIsAMeterOfTheServiceThatTheListNames() throws IOException {
        Map<String, String> missing = new TreeMap<>();
        for (String line : K8sDir.read(K8sDir.EXPORTED_METRICS).split("\n")) {
            String[] fields = line.strip().split("\\s+");
            if (fields.length < 2 || !fields[0].startsWith("exam_")) {
                continue;
            }
            String base = fields[0].replaceAll("_(total|bucket|count|sum|max)$", "");
            Set<String> meterNames = new TreeSet<>(List.of(base.replace('_', '.'), base.replaceAll("_seconds$", "").replace('_', '.')));
            Set<String> registered = meterNamesIn(fields[1]);
            if (meterNames.stream().noneMatch(registered::contains)) {
                missing.put(fields[0], fields[1] + " registers none of " + meterNames);
            }
        }
        assertEquals(Map.of(), missing, "update monitoring/exported-metrics.txt (and the rules/dashboard) with the service");
    }

    private static final Map<String, Set<String>> METERS_BY_MODULE = new ConcurrentHashMap<>();

    private static Set<String> meterNamesIn(String module) throws IOException {
        if (!METERS_BY_MODULE.containsKey(module)) {
            Set<String> names = new TreeSet<>();
            Path sources = K8sDir.ROOT.resolveSibling(module).resolve("src/main/java");
            assertTrue(Files.isDirectory(sources), "no module " + module + " (second column of exported-metrics.txt)");
            Pattern literal = Pattern.compile("\"(exam\\.[a-z0-9.]+)\"");
            try (Stream<Path> files = Files.walk(sources)) {
                for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                    Matcher m = literal.matcher(Files.readString(file));
                    while (m.find()) {
                        names.add(m.group(1));
                    }
                }
            }
            METERS_BY_MODULE.put(module, names);
        }
        return METERS_BY_MODULE.get(module);
    }

    @Test
    void theExtractorFindsMetricsAndNothingElse() {
        assertEquals(Set.of("a_total", "b_seconds_bucket", "exam_sessions_active"), PromQlNames.metricNames(
                "sum by (namespace, le) (rate(a_total{x=\"y}\",service=~\"$service\"}[$__rate_interval])) "
                        + "/ on (namespace) group_left histogram_quantile(0.95, b_seconds_bucket offset 30m) > 0.5 "
                        + "and on (namespace) (sum by (namespace) (exam_sessions_active) > 1e3)"));
    }
}
