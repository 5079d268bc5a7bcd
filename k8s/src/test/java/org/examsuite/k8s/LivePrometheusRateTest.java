package org.examsuite.k8s;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Against the running suite (./exam test live): a real Prometheus (Debian's binary) on loopback scrapes
 * the four services every second with the labels the ServiceMonitor gives them in a cluster, while a
 * fixed-rate load generator sends requests to session-service; the KEDA ScaledObject's query, exactly
 * as the chart renders it, must return the request rate the generator measured, within 10 %.
 *
 * <p>Labels: the rendered query selects {@code namespace="<release namespace>"} and
 * {@code service="<release>-<service>"}. In a cluster the Prometheus Operator sets them from the
 * ServiceMonitor's target; here the scrape config gives each static target the same labels
 * (namespace {@value Chart#NAMESPACE}, service exam-suite-&lt;name&gt;, pod exam-suite-&lt;name&gt;-local), so the
 * query runs unchanged. One pod: the per-pod rate KEDA's AverageValue divides out is the total.
 */
@Tag("live")
class LivePrometheusRateTest {

    static final String LOADED = "session-service";
    static final int RATE = Integer.parseInt(System.getenv().getOrDefault("EXAM_LIVE_RATE", "80"));
    static final int IN_FLIGHT = 32;
    static final Duration LOAD = Duration.ofSeconds(80);
    /**
     * The query is evaluated this long after the load started: its 1m window lies wholly inside the
     * load, after 15 s of warm-up (JIT, connection pool).
     */
    static final Duration EVALUATE_AT = Duration.ofSeconds(75);

    static Process prometheus;
    static String prometheusUrl;
    static Path dir;

    @BeforeAll
    static void startPrometheus() throws Exception {
        LiveSuite.requireReady();
        Path binary = Tools.require("prometheus", "apt-get install -y prometheus (./exam test live installs it)");
        int port;
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort();
        }
        dir = K8sDir.workDir("live/prometheus-" + System.currentTimeMillis());
        StringBuilder config = new StringBuilder("""
                global:
                  scrape_interval: 1s
                  evaluation_interval: 1s
                rule_files:
                  - %s
                scrape_configs:
                  - job_name: exam-suite
                    metrics_path: /q/metrics
                    scrape_interval: 1s
                    scrape_timeout: 900ms
                    static_configs:
                """.formatted(K8sDir.RULES));
        for (String service : LiveSuite.SERVICES) {
            config.append("""
                          - targets: ['127.0.0.1:%d']
                            labels: {namespace: %s, service: %s, pod: %s-local}
                    """.formatted(LiveSuite.PORTS.get(service), Chart.NAMESPACE, Chart.fullName(service), Chart.fullName(service)));
        }
        Path configFile = K8sDir.write(dir.resolve("prometheus.yml"), config.toString());
        prometheusUrl = "http://127.0.0.1:" + port;
        prometheus = new ProcessBuilder(binary.toString(), "--config.file=" + configFile,
                "--storage.tsdb.path=" + dir.resolve("data"), "--web.listen-address=127.0.0.1:" + port,
                "--storage.tsdb.retention.time=1h", "--log.level=warn")
                .redirectErrorStream(true).redirectOutput(dir.resolve("prometheus.log").toFile()).start();
        Runtime.getRuntime().addShutdownHook(new Thread(LivePrometheusRateTest::stopPrometheus));
        System.out.println("live rate: Prometheus pid " + prometheus.pid() + " on " + prometheusUrl + ", files in " + dir);
        Awaitility.await("Prometheus ready on " + prometheusUrl + " (log: " + dir.resolve("prometheus.log") + ")")
                .atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500))
                .until(() -> {
                    assertTrue(prometheus.isAlive(), () -> "Prometheus exited: " + log());
                    return status(prometheusUrl + "/-/ready") == 200;
                });
        Awaitility.await("Prometheus scrapes all four services").atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofSeconds(1))
                .until(() -> {
                    JsonNode targets = api("/api/v1/targets?state=active").at("/data/activeTargets");
                    int up = 0;
                    for (JsonNode t : targets) {
                        up += "up".equals(t.path("health").asText()) ? 1 : 0;
                    }
                    return up == LiveSuite.SERVICES.size();
                });
    }

    @AfterAll
    static void stopPrometheus() {
        if (prometheus != null && prometheus.isAlive()) {
            prometheus.destroy();
            try {
                if (!prometheus.waitFor(20, TimeUnit.SECONDS)) {
                    prometheus.destroyForcibly();
                }
            } catch (InterruptedException e) {
                prometheus.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
        // Keep the config and the log, not the TSDB.
        Path data = dir == null ? null : dir.resolve("data");
        if (data != null && Files.isDirectory(data) && (prometheus == null || !prometheus.isAlive())) {
            try (var files = Files.walk(data)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            } catch (IOException e) {
                System.out.println("could not remove " + data + ": " + e);
            }
        }
    }

    @Test
    void theScaledObjectQueryReturnsTheRateTheLoadGeneratorSent() throws Exception {
        JsonNode scaled = Chart.render(Chart.Values.defaults()).get("ScaledObject", Chart.fullName(LOADED));
        String query = scaled.at("/spec/triggers/0/metadata/query").asText();
        double threshold = scaled.at("/spec/triggers/0/metadata/threshold").asDouble();
        assertTrue(query.contains("namespace=\"" + Chart.NAMESPACE + "\"") && query.contains("service=\"" + Chart.fullName(LOADED) + "\""),
                "the ScaledObject query no longer selects namespace/service as the local scrape config labels them: " + query);

        String operator = LiveSuite.operatorToken();
        LiveSuite.Session session = LiveSuite.startSession(operator);
        URI target = URI.create(LiveSuite.base(LOADED) + "/api/v1/sessions/" + session.sessionId());
        HttpRequest request = HttpRequest.newBuilder(target).timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + session.token()).GET().build();

        ConcurrentLinkedQueue<Long> sent = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<Long> answered = new ConcurrentLinkedQueue<>();
        Map<Integer, AtomicLong> statuses = new ConcurrentHashMap<>();
        Map<String, AtomicLong> errors = new ConcurrentHashMap<>();
        AtomicLong skipped = new AtomicLong();
        // At most IN_FLIGHT requests outstanding: a stalled server makes the generator skip ticks (counted)
        // rather than pile up connections and time-outs that the server may still count later.
        Semaphore inFlight = new Semaphore(IN_FLIGHT);
        ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor();
        long start = System.currentTimeMillis();
        long end = start + LOAD.toMillis();
        ticker.scheduleAtFixedRate(() -> {
            if (System.currentTimeMillis() >= end) {
                return;
            }
            if (!inFlight.tryAcquire()) {
                skipped.incrementAndGet();
                return;
            }
            sent.add(System.currentTimeMillis());
            LiveSuite.HTTP.sendAsync(request, HttpResponse.BodyHandlers.discarding()).whenComplete((response, error) -> {
                inFlight.release();
                if (error != null) {
                    Throwable cause = error.getCause() != null ? error.getCause() : error;
                    errors.computeIfAbsent(cause.getClass().getSimpleName(), e -> new AtomicLong()).incrementAndGet();
                } else {
                    answered.add(System.currentTimeMillis());
                    statuses.computeIfAbsent(response.statusCode(), c -> new AtomicLong()).incrementAndGet();
                }
            });
        }, 0, 1_000_000_000L / RATE, TimeUnit.NANOSECONDS);
        Awaitility.await("the load of " + LOAD).atMost(LOAD.plusSeconds(60)).pollInterval(Duration.ofSeconds(1))
                .until(() -> System.currentTimeMillis() >= end + 2000 && inFlight.availablePermits() == IN_FLIGHT);
        ticker.shutdownNow();

        long evalAt = start + EVALUATE_AT.toMillis();
        long from = evalAt - 60_000;
        long answeredInWindow = answered.stream().filter(t -> t > from && t <= evalAt).count();
        long sentInWindow = sent.stream().filter(t -> t > from && t <= evalAt).count();
        double measured = answeredInWindow / 60.0;
        JsonNode reply = api("/api/v1/query?query=" + URLEncoder.encode(query, StandardCharsets.UTF_8) + "&time=" + (evalAt / 1000.0));
        JsonNode series = reply.at("/data/result");
        assertEquals(1, series.size(), "the ScaledObject query should return one series: " + reply);
        double prom = series.get(0).at("/value/1").asDouble();
        double error = Math.abs(prom - measured) / measured;

        // autoscaling.mode=hpa: the Prometheus Adapter's metricsQuery as the adapter expands it for the
        // pods of the Deployment (namespace + pod matchers, grouped by pod) gives the per-pod rate.
        JsonNode adapter = Yaml.tree(K8sDir.read(K8sDir.ADAPTER_RULES)).at("/rules/0");
        String pod = Chart.fullName(LOADED) + "-local";
        String adapterQuery = adapter.path("metricsQuery").asText()
                .replace("<<.Series>>", adapter.at("/name/matches").asText().replaceAll("[\\^$]", ""))
                .replace("<<.LabelMatchers>>", "namespace=\"" + Chart.NAMESPACE + "\",pod=~\"" + pod + "\"")
                .replace("<<.GroupBy>>", "pod");
        JsonNode adapterSeries = api("/api/v1/query?query=" + URLEncoder.encode(adapterQuery, StandardCharsets.UTF_8)
                + "&time=" + (evalAt / 1000.0)).at("/data/result");
        assertEquals(1, adapterSeries.size(), "the adapter query should return one series (one pod): " + adapterSeries);
        assertEquals(pod, adapterSeries.get(0).at("/metric/pod").asText());
        double perPod = adapterSeries.get(0).at("/value/1").asDouble();
        double adapterError = Math.abs(perPod - measured) / measured;
        String report = String.format(java.util.Locale.ROOT,
                "live rate: %s GET /api/v1/sessions/{id} at a scheduled %d req/s for %d s; in the query's window "
                        + "[%d s, %d s] of the load the generator sent %d and got %d answers (%.2f req/s measured); "
                        + "Prometheus (scrape 1 s) evaluated the ScaledObject query %s to %.2f req/s: relative error %.2f %%. "
                        + "The adapter rule's per-pod query %s gave %.2f req/s (error %.2f %%). "
                        + "Statuses %s, transport errors %s, ticks skipped (%d in flight) %d. KEDA (AverageValue, threshold %.0f per pod) would want %d pod(s) for this rate.",
                LOADED, RATE, LOAD.toSeconds(), EVALUATE_AT.toSeconds() - 60, EVALUATE_AT.toSeconds(), sentInWindow, answeredInWindow,
                measured, query, prom, 100 * error, adapterQuery, perPod, 100 * adapterError, new TreeMap<>(statuses), new TreeMap<>(errors), IN_FLIGHT, skipped.get(), threshold,
                (int) Math.max(1, Math.ceil(prom / threshold)));
        System.out.println(report);
        K8sDir.write(K8sDir.WORK.resolve("live/rate-report.txt"), report + "\n");
        assertTrue(statuses.getOrDefault(200, new AtomicLong()).get() >= 0.99 * answered.size(),
                "the load should be answered 200 (a check of the rate, not of errors): " + statuses);
        assertTrue(measured > 0.25 * RATE, "the generator reached only " + measured + " req/s of " + RATE + ": machine too busy?");
        assertEquals(Map.of(), new TreeMap<>(errors), "transport errors make the generator's count unreliable: " + report);
        assertTrue(error <= 0.10, report);
        assertTrue(adapterError <= 0.10, report);
        // What the generator sent in the window, too (with at most IN_FLIGHT outstanding, sent and answered
        // differ by a fraction of a second's worth of requests).
        assertTrue(Math.abs(prom - sentInWindow / 60.0) / (sentInWindow / 60.0) <= 0.10, report);
    }

    /** The PrometheusRule's rules load into a real Prometheus and evaluate against the live series without error. */
    @Test
    void theRulesEvaluateAgainstTheLiveSeries() throws Exception {
        Awaitility.await("every rule group evaluated at least once").atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofSeconds(1))
                .until(() -> {
                    for (JsonNode group : api("/api/v1/rules").at("/data/groups")) {
                        if (group.path("lastEvaluation").asText().startsWith("0001-")) {
                            return false;
                        }
                    }
                    return true;
                });
        Map<String, String> broken = new TreeMap<>();
        int rules = 0;
        for (JsonNode group : api("/api/v1/rules").at("/data/groups")) {
            for (JsonNode rule : group.path("rules")) {
                rules++;
                if ("err".equals(rule.path("health").asText())) {
                    broken.put(rule.path("name").asText(), rule.path("lastError").asText());
                }
            }
        }
        System.out.println("live rules: " + rules + " rules evaluated by Prometheus against the live series");
        assertTrue(rules > 0, "no rules loaded from " + K8sDir.RULES);
        assertEquals(Map.of(), broken, "rules that fail to evaluate");
    }

    /**
     * Every dashboard query, with Grafana's variables as a user would pick them (the namespace, all
     * services, $__rate_interval = 1m), runs in Prometheus against the live series without error.
     */
    @Test
    void everyDashboardQueryRunsAgainstTheLiveSeries() throws Exception {
        Map<String, String> failed = new TreeMap<>();
        java.util.List<String> empty = new java.util.ArrayList<>();
        int queries = 0;
        for (Map.Entry<String, String> e : LiveMetricNamesTest.renderedExpressions().entrySet()) {
            if (!e.getKey().startsWith("dashboard panel")) {
                continue;
            }
            queries++;
            String expr = e.getValue().replace("$__rate_interval", "1m").replace("${namespace}", Chart.NAMESPACE)
                    .replace("$namespace", Chart.NAMESPACE).replace("${service}", ".*").replace("$service", ".*");
            HttpResponse<String> response = LiveSuite.HTTP.send(HttpRequest.newBuilder(URI.create(prometheusUrl
                    + "/api/v1/query?query=" + URLEncoder.encode(expr, StandardCharsets.UTF_8))).timeout(Duration.ofSeconds(10)).build(),
                    HttpResponse.BodyHandlers.ofString());
            JsonNode reply = LiveSuite.JSON.readTree(response.body());
            if (response.statusCode() != 200 || !"success".equals(reply.path("status").asText())) {
                failed.put(e.getKey(), reply.path("error").asText(response.body()));
            } else if (reply.at("/data/result").isEmpty()) {
                empty.add(e.getKey());
            }
        }
        System.out.println("live dashboard: " + queries + " panel queries ran in Prometheus; empty now (no such event yet): " + empty);
        assertTrue(queries > 0, "no dashboard panel queries");
        assertEquals(Map.of(), failed, "dashboard queries Prometheus refuses");
    }

    static JsonNode api(String path) throws IOException, InterruptedException {
        HttpResponse<String> response = LiveSuite.HTTP.send(HttpRequest.newBuilder(URI.create(prometheusUrl + path))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), () -> path + ": " + response.body());
        return LiveSuite.JSON.readTree(response.body());
    }

    static int status(String url) {
        try {
            return LiveSuite.HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(2)).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException e) {
            return 0;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 0;
        }
    }

    static String log() {
        try {
            return Files.readString(dir.resolve("prometheus.log"));
        } catch (IOException e) {
            return e.toString();
        }
    }
}
