package org.examsuite.k8s;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Against the running suite (./exam test live): every metric that a PromQL expression we ship reads
 * — the PrometheusRule and the dashboard as the chart renders them, the KEDA ScaledObjects' queries
 * and the Prometheus Adapter rule — is exported by a service's /q/metrics (or recorded by a rule),
 * after a small exam went through the API so that lazily created series exist.
 */
@Tag("live")
class LiveMetricNamesTest {

    private static final Map<String, Set<String>> LIVE = new TreeMap<>();
    /** Label names each live metric's series carry (over all services). */
    private static final Map<String, Set<String>> LIVE_LABELS = new TreeMap<>();
    /** Labels the scrape adds (ServiceMonitor / Prometheus), not the service. */
    private static final Set<String> TARGET_LABELS = Set.of("namespace", "service", "pod", "job", "instance", "endpoint", "container");
    private static final Pattern SELECTOR = Pattern.compile("([a-zA-Z_:][a-zA-Z0-9_:]*)\\s*\\{([^}]*)}");
    private static final Pattern MATCHER = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)\\s*(=~|!~|!=|=)\\s*\"");

    @BeforeAll
    static void trafficThenScrape() {
        LiveSuite.requireReady();
        String operator = LiveSuite.operatorToken();
        JsonNode result = LiveSuite.smallExam(operator, null);
        System.out.println("live metric names: drove one exam, result " + result);
        for (String service : LiveSuite.SERVICES) {
            Map<String, Set<String>> labels = LiveSuite.exportedLabels(service);
            LIVE.put(service, labels.keySet());
            labels.forEach((name, l) -> LIVE_LABELS.computeIfAbsent(name, n -> new TreeSet<>()).addAll(l));
        }
    }

    /** Every PromQL expression of the rendered chart (default values) and the adapter rule, by where it is. */
    static Map<String, String> renderedExpressions() {
        Map<String, String> exprs = new LinkedHashMap<>();
        Chart.Rendered rendered = Chart.render(Chart.Values.defaults());
        for (JsonNode rule : rendered.ofKind("PrometheusRule")) {
            for (JsonNode group : rule.at("/spec/groups")) {
                for (JsonNode r : group.path("rules")) {
                    exprs.put("PrometheusRule " + r.path(r.has("alert") ? "alert" : "record").asText(), r.path("expr").asText());
                }
            }
        }
        int dashboards = 0;
        for (JsonNode map : rendered.ofKind("ConfigMap")) {
            JsonNode json = map.at("/data/exam-suite.json");
            if (json.isMissingNode()) {
                continue;
            }
            dashboards++;
            JsonNode dashboard = Yaml.tree(json.asText());
            for (JsonNode panel : dashboard.path("panels")) {
                for (JsonNode target : panel.path("targets")) {
                    exprs.put("dashboard panel '" + panel.path("title").asText() + "' " + target.path("refId").asText(),
                            target.path("expr").asText());
                }
            }
            for (JsonNode variable : dashboard.at("/templating/list")) {
                String query = variable.path("query").asText();
                if (query.startsWith("label_values(")) {
                    exprs.put("dashboard variable " + variable.path("name").asText(),
                            query.substring("label_values(".length(), query.lastIndexOf(',')));
                }
            }
        }
        assertEquals(1, dashboards, "the default render has one dashboard ConfigMap");
        for (JsonNode scaled : rendered.ofKind("ScaledObject")) {
            exprs.put("ScaledObject " + scaled.at("/metadata/name").asText(), scaled.at("/spec/triggers/0/metadata/query").asText());
        }
        JsonNode adapter = Yaml.tree(K8sDir.read(K8sDir.ADAPTER_RULES)).at("/rules/0");
        exprs.put("adapter seriesQuery", adapter.path("seriesQuery").asText());
        exprs.put("adapter metricsQuery", adapter.path("metricsQuery").asText()
                .replace("<<.Series>>", adapter.at("/name/matches").asText().replaceAll("[\\^$]", ""))
                .replace("<<.LabelMatchers>>", "").replace("<<.GroupBy>>", "pod"));
        return exprs;
    }

    /** The suite runs from native executables (./exam test exports EXAM_NATIVE=1 after the native stage). */
    static boolean nativeSuite() {
        return "1".equals(System.getenv("EXAM_NATIVE"));
    }

    /** Metrics of the list's jvm-services: only a JVM exports them (SubstrateVM has no GC notifications). */
    static Set<String> jvmOnly() {
        Set<String> names = new TreeSet<>();
        for (String line : K8sDir.read(K8sDir.EXPORTED_METRICS).split("\n")) {
            String[] fields = line.strip().split("\\s+");
            if (fields.length >= 2 && "jvm-services".equals(fields[1])) {
                names.add(fields[0]);
            }
        }
        return names;
    }

    @Test
    void everyMetricThatAQueryReadsIsExportedByTheRunningServices() {
        Set<String> live = new TreeSet<>();
        LIVE.values().forEach(live::addAll);
        Set<String> defined = new TreeSet<>(MetricNamesTest.recorded());
        if (nativeSuite()) {
            defined.addAll(jvmOnly()); // read by the GC panels and alerts, exported only by JVM pods
        }
        defined.add("up"); // Prometheus writes it for every target
        Map<String, Set<String>> missing = new TreeMap<>();
        Map<String, String> exprs = renderedExpressions();
        assertTrue(exprs.keySet().stream().anyMatch(k -> k.startsWith("PrometheusRule ")), "no PrometheusRule rendered");
        assertTrue(exprs.keySet().stream().anyMatch(k -> k.startsWith("ScaledObject ")), "no ScaledObject rendered");
        Set<String> checked = new TreeSet<>();
        exprs.forEach((where, expr) -> {
            for (String name : PromQlNames.metricNames(expr)) {
                if (defined.contains(name)) {
                    continue;
                }
                checked.add(name);
                if (!live.contains(name)) {
                    missing.computeIfAbsent(name, n -> new TreeSet<>()).add(where);
                }
            }
        });
        System.out.println("live metric names: " + exprs.size() + " expressions read " + checked.size()
                + " exported names, all checked against /q/metrics of 8081–8084: " + checked);
        assertEquals(Map.of(), missing, "metrics read by a query (→ where) that no running service exports on /q/metrics");
    }

    /**
     * A selector that matches on a label the metric does not carry selects nothing, silently: every
     * label matched in a selector of a live metric (other than those the scrape adds) is on its series.
     */
    @Test
    void everyLabelASelectorMatchesIsOnTheLiveSeries() {
        Map<String, Set<String>> wrong = new TreeMap<>();
        renderedExpressions().forEach((where, expr) -> {
            Matcher selector = SELECTOR.matcher(expr);
            while (selector.find()) {
                Set<String> labels = LIVE_LABELS.get(selector.group(1));
                if (labels == null) {
                    continue; // recorded series, or missing: the test above names it
                }
                Matcher matcher = MATCHER.matcher(selector.group(2));
                while (matcher.find()) {
                    String label = matcher.group(1);
                    if (!TARGET_LABELS.contains(label) && !labels.contains(label)) {
                        wrong.computeIfAbsent(selector.group(1) + " has no label '" + label + "' (has " + labels + ")",
                                k -> new TreeSet<>()).add(where);
                    }
                }
            }
        });
        assertEquals(Map.of(), wrong, "selectors matching on labels the live series do not carry (→ where)");
    }

    /** monitoring/exported-metrics.txt (what MetricNamesTest checks the queries against) is true of the live services. */
    @Test
    void theExportedMetricsListIsTrueOfTheRunningServices() {
        Map<String, String> wrong = new TreeMap<>();
        for (String line : K8sDir.read(K8sDir.EXPORTED_METRICS).split("\n")) {
            String[] fields = line.strip().split("\\s+");
            if (fields.length < 2 || fields[0].startsWith("#")) {
                continue;
            }
            if ("jvm-services".equals(fields[1]) && nativeSuite()) {
                continue; // a JVM's GC notifications: no native executable has them
            }
            // suite-common's own meters (the shared library) are exported by every service
            boolean everyService = "all-services".equals(fields[1]) || "suite-common".equals(fields[1])
                    || "jvm-services".equals(fields[1]);
            for (String service : everyService ? LiveSuite.SERVICES : java.util.List.of(fields[1])) {
                Set<String> names = LIVE.get(service);
                if (names == null) {
                    wrong.put(fields[0], "unknown service " + service);
                } else if (!names.contains(fields[0])) {
                    wrong.merge(fields[0], "not exported by " + service, (a, b) -> a + ", " + b);
                }
            }
        }
        assertEquals(Map.of(), wrong, "monitoring/exported-metrics.txt says these are exported; the running services disagree");
    }
}
