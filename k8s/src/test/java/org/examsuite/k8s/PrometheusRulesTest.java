package org.examsuite.k8s;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** promtool check/test rules on the one rules file, one unit test per alert, and no drift to the chart. */
class PrometheusRulesTest {

    private static final String INSTALL_PROMTOOL = "Debian: apt-get install -y prometheus (gives /usr/bin/promtool; "
            + "no daemon needs to run)";

    @Test
    void promtoolAcceptsTheRules() {
        Path promtool = Tools.require("promtool", INSTALL_PROMTOOL);
        Tools.Result result = Tools.run(K8sDir.ROOT, 60, List.of(promtool.toString(), "check", "rules", K8sDir.RULES.toString()));
        assertEquals(0, result.exitCode(), result.output());
    }

    @Test
    void promtoolUnitTestsPass() {
        Path promtool = Tools.require("promtool", INSTALL_PROMTOOL);
        Tools.Result result = Tools.run(K8sDir.RULE_TESTS.getParent(), 120,
                List.of(promtool.toString(), "test", "rules", K8sDir.RULE_TESTS.getFileName().toString()));
        assertEquals(0, result.exitCode(), result.output());
        assertTrue(result.output().contains("SUCCESS"), result.output());
    }

    @Test
    void everyShippedQueryIsValidPromQl() {
        // Dashboard panels, variables, KEDA queries and the adapter rule are not rules, so promtool
        // would not see them: wrap each (Grafana/adapter placeholders filled in) as a recording rule.
        Path promtool = Tools.require("promtool", INSTALL_PROMTOOL);
        StringBuilder rules = new StringBuilder("groups:\n  - name: shipped-queries\n    rules:\n");
        MetricNamesTest.expressions().forEach((where, expr) -> {
            String filled = expr.replace("$__rate_interval", "5m").replace("$namespace", "exam").replace("$service", ".*")
                    .replace("<<.Series>>", "http_server_requests_seconds_count")
                    .replace("<<.LabelMatchers>>", "namespace=\"exam\"").replace("<<.GroupBy>>", "pod");
            rules.append("      - record: shipped:query\n        # ").append(where.replaceAll("[\\r\\n]", " "))
                    .append("\n        expr: ").append(Yaml.json(Yaml.JSON.getNodeFactory().textNode(filled))).append('\n');
        });
        rules.append("      - record: shipped:adapter_metrics_query\n        expr: ")
                .append(Yaml.json(Yaml.JSON.getNodeFactory().textNode(Yaml.tree(K8sDir.read(K8sDir.ADAPTER_RULES))
                        .at("/rules/0/metricsQuery").asText()
                        .replace("<<.Series>>", "http_server_requests_seconds_count")
                        .replace("<<.LabelMatchers>>", "namespace=\"exam\"").replace("<<.GroupBy>>", "pod"))))
                .append('\n');
        Path file = K8sDir.write(K8sDir.workDir("promql").resolve("shipped-queries.yaml"), rules.toString());
        Tools.Result result = Tools.run(K8sDir.ROOT, 60, List.of(promtool.toString(), "check", "rules", file.toString()));
        assertEquals(0, result.exitCode(), result.output() + "\n" + rules);
    }

    @Test
    void everyAlertHasAUnitTestThatFiresItAndARunbookEntry() {
        Set<String> alerts = alertNames();
        assertTrue(alerts.size() >= 9, "golden signals + exam flow alerts: " + alerts);
        JsonNode tests = Yaml.tree(K8sDir.read(K8sDir.RULE_TESTS));
        Set<String> firedInTests = new TreeSet<>();
        for (JsonNode test : tests.path("tests")) {
            for (JsonNode case_ : test.path("alert_rule_test")) {
                if (!case_.path("exp_alerts").isEmpty()) {
                    firedInTests.add(case_.path("alertname").asText());
                }
            }
        }
        assertEquals(alerts, firedInTests, "each alert needs a promtool test case where it fires");
        String guide = K8sDir.read(K8sDir.ROOT.resolveSibling("docs/operations.md"));
        for (String alert : alerts) {
            assertTrue(guide.contains("### " + alert), "docs/operations.md has no runbook entry '### " + alert + "'");
        }
        for (JsonNode group : Yaml.tree(K8sDir.read(K8sDir.RULES)).path("groups")) {
            for (JsonNode rule : group.path("rules")) {
                if (rule.has("alert")) {
                    assertEquals(DEFAULT_RUNBOOKS + "#" + rule.path("alert").asText().toLowerCase(),
                            rule.at("/annotations/runbook_url").asText());
                    assertTrue(Set.of("warning", "critical").contains(rule.at("/labels/severity").asText()));
                }
            }
        }
    }

    /** The base the rules file holds (the chart's default runbookBaseUrl, which the chart replaces). */
    static final String DEFAULT_RUNBOOKS = "https://github.com/examsuite/exam-suite/blob/main/docs/operations.md";

    @Test
    void renderedAlertsCarryAnAbsoluteRunbookUrlOnTheConfiguredBase() {
        for (String base : List.of(DEFAULT_RUNBOOKS, "https://wiki.example.org/exam/runbooks/")) {
            Chart.Rendered rendered = Chart.render(Chart.Values.production().set("metrics.prometheusRule.runbookBaseUrl", base));
            int alerts = 0;
            for (JsonNode group : rendered.get("PrometheusRule", "exam-suite").at("/spec/groups")) {
                for (JsonNode rule : group.path("rules")) {
                    if (rule.has("alert")) {
                        alerts++;
                        String url = rule.at("/annotations/runbook_url").asText();
                        assertEquals(base.replaceAll("/$", "") + "#" + rule.path("alert").asText().toLowerCase(), url);
                        assertTrue(java.net.URI.create(url).isAbsolute(), url);
                        assertTrue(rule.at("/annotations/runbook").isMissingNode(), "only runbook_url: " + rule);
                    }
                }
            }
            assertEquals(alertNames().size(), alerts);
        }
    }

    @Test
    void theChartShipsTheRulesAndDashboardFilesVerbatim() {
        for (Chart.Values values : List.of(Chart.Values.defaults(), Chart.Values.production())) {
            Chart.Rendered rendered = Chart.render(values);
            assertEquals(Yaml.tree(K8sDir.read(K8sDir.RULES)), rendered.get("PrometheusRule", "exam-suite").path("spec"));
            JsonNode dashboard = rendered.get("ConfigMap", "exam-suite-dashboard");
            assertEquals("1", dashboard.at("/metadata/labels/grafana_dashboard").asText());
            assertEquals(Yaml.tree(K8sDir.read(K8sDir.DASHBOARD)), Yaml.tree(dashboard.at("/data/exam-suite.json").asText()));
        }
        JsonNode monitor = Chart.render(Chart.Values.production()).get("ServiceMonitor", Chart.fullName("answer-service"));
        assertEquals("/q/metrics", monitor.at("/spec/endpoints/0/path").asText());
        assertEquals("kube-prometheus-stack", monitor.at("/metadata/labels/release").asText());
    }

    @Test
    void dashboardHasTheGoldenSignalsAndTheExamDayRow() {
        JsonNode dashboard = Yaml.tree(K8sDir.read(K8sDir.DASHBOARD));
        Set<String> titles = new TreeSet<>();
        StringBuilder exprs = new StringBuilder();
        for (JsonNode panel : dashboard.path("panels")) {
            titles.add(panel.path("title").asText());
            panel.path("targets").forEach(t -> exprs.append(t.path("expr").asText()).append('\n'));
        }
        assertTrue(titles.containsAll(Set.of("Exam day", "Active sessions", "Autosaves/s", "Submissions/s", "Saga backlog",
                "Golden signals", "Traffic", "Error ratio (5xx)", "Latency p95", "Latency p99", "Autosave persist lag")), titles.toString());
        for (String metric : List.of("exam_sessions_active", "exam_autosave_changes_total", "exam_submissions_total",
                "exam_saga_total", "exam_answer_persist_lag_seconds", "http_server_requests_seconds_bucket")) {
            assertTrue(exprs.toString().contains(metric), metric);
        }
    }

    static Set<String> alertNames() {
        Set<String> alerts = new TreeSet<>();
        Matcher m = Pattern.compile("(?m)^\\s*- alert: (\\w+)").matcher(K8sDir.read(K8sDir.RULES));
        while (m.find()) {
            alerts.add(m.group(1));
        }
        return alerts;
    }
}
