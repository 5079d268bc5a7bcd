package org.examsuite.tools;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

/**
 * {@code ./exam capacity}: how big an exam day's deployment must be, from the measured CPU per
 * unit of work (bench/figures.properties, kept with docs/benchmarks.md). The exam is three
 * phases — the start surge, the exam itself (autosaves and heartbeats), the deadline rush
 * (papers, with the last autosaves) — and each service is sized for its busiest phase at the
 * stated headroom. Linear in the load: what one replica did on the bench, N replicas do on N
 * times the cores (an assumption the bench cannot check; printed with the result).
 */
public final class Capacity {
    static final List<String> SERVICES = List.of("session-service", "answer-service", "submission-service", "grading-saga");

    /** The exam day: candidates, and how they load the suite. */
    public record Exam(long candidates, double autosaveEverySeconds, double submitWindowSeconds, double startWindowSeconds,
            double heartbeatEverySeconds, double gradeWithinSeconds, boolean liveChannel) {
    }

    /** How much spare capacity to keep, and what one replica gets. */
    public record Plan(double headroom, double coresPerReplica, int minReplicas) {
    }

    /** Per service: cores needed in its busiest phase, and replicas. */
    record Service(String name, String busiestPhase, double cores, int replicas) {
    }

    public record Result(Map<String, Double> rates, List<Service> services, double redisCores, int redisShards,
            double postgresCores, double postgresCommitsPerSecond, List<String> assumptions) {
    }

    private final Properties figures;

    Capacity(Properties figures) {
        this.figures = figures;
    }

    public static Capacity load(Path file) throws IOException {
        Properties figures = new Properties();
        try (Reader reader = Files.newBufferedReader(file)) {
            figures.load(reader);
        }
        return new Capacity(figures);
    }

    /** A measured figure; a missing one is an error, never a guess. */
    double figure(String name) {
        String value = figures.getProperty(name);
        if (value == null) {
            throw new IllegalArgumentException("bench/figures.properties has no " + name);
        }
        return Double.parseDouble(value.strip());
    }

    public Result size(Exam exam, Plan plan) {
        double starts = exam.candidates() / exam.startWindowSeconds();
        double autosaves = exam.candidates() / exam.autosaveEverySeconds();
        double heartbeats = exam.candidates() / exam.heartbeatEverySeconds();
        double papers = exam.candidates() / exam.submitWindowSeconds();
        // Grading is behind the stream: its papers may queue and be graded within gradeWithin.
        double graded = exam.candidates() / Math.max(exam.gradeWithinSeconds(), exam.submitWindowSeconds());
        Map<String, Double> rates = new LinkedHashMap<>();
        rates.put("session starts/s (start surge)", starts);
        rates.put("autosaves/s", autosaves);
        rates.put("heartbeats/s", heartbeats);
        rates.put("papers/s (deadline rush)", papers);
        rates.put("papers graded/s", graded);
        // Units per second of each kind, by phase: the heartbeats run in every phase.
        Map<String, Map<String, Double>> phases = new LinkedHashMap<>();
        phases.put("start", Map.of("start", starts, "heartbeat", heartbeats));
        phases.put("exam", Map.of("autosave", autosaves, "heartbeat", heartbeats));
        phases.put("deadline", Map.of("paper", papers, "graded", graded, "autosave", autosaves, "heartbeat", heartbeats));

        List<Service> services = new ArrayList<>();
        for (String service : SERVICES) {
            String busiest = null;
            double cores = 0;
            for (Map.Entry<String, Map<String, Double>> phase : phases.entrySet()) {
                double phaseCores = cores(phase.getValue(), service);
                if (phaseCores > cores) {
                    cores = phaseCores;
                    busiest = phase.getKey();
                }
            }
            double needed = cores / plan.headroom();
            int replicas = Math.max(plan.minReplicas(), (int) Math.ceil(needed / plan.coresPerReplica()));
            if (service.equals("session-service") && exam.liveChannel()) {
                // Each replica holds at most exam.live.max-sockets candidate sockets (memory, not CPU).
                replicas = Math.max(replicas, (int) Math.ceil(exam.candidates() / figure("live.sockets-per-replica")));
            }
            services.add(new Service(service, busiest == null ? "-" : busiest, needed, replicas));
        }
        double redis = 0;
        double postgres = 0;
        double commits = 0;
        for (Map<String, Double> phase : phases.values()) {
            redis = Math.max(redis, cores(phase, "redis"));
            postgres = Math.max(postgres, cores(phase, "postgres"));
            commits = Math.max(commits, commits(phase));
        }
        // A Redis shard is one thread: at most one core, kept at the headroom.
        int shards = Math.max(3, (int) Math.ceil(redis / plan.headroom()));
        List<String> assumptions = List.of(
                "CPU per unit as measured on one 2-core machine with the load generator beside the suite (bench/figures.properties); the services scale linearly with replicas (not measured beyond two replicas)",
                "Redis: a shard's thread saturates at one core, keys spread evenly over the shards (hash tags by session); cluster replication adds figure autosave.redis-wait per autosave",
                "PostgreSQL: one primary; cores and commits/s from the same figures (grading-saga's database work included); storage and WAL throughput not modelled",
                "the network, the ingress and TLS are not modelled; the phases do not overlap except as stated (heartbeats always, autosaves during the rush)");
        return new Result(rates, services, redis / plan.headroom(), shards, postgres / plan.headroom(), commits, assumptions);
    }

    /** Cores {@code process} spends on a phase's units: Σ rate × ms per unit / 1000. */
    private double cores(Map<String, Double> phase, String process) {
        double ms = 0;
        for (Map.Entry<String, Double> unit : phase.entrySet()) {
            String key = unit.getKey() + "." + process;
            if (figures.containsKey(key)) {
                ms += unit.getValue() * figure(key);
            }
        }
        if (process.equals("redis") && phase.containsKey("autosave")) {
            ms += phase.get("autosave") * figure("autosave.redis-wait");
        }
        return ms / 1000;
    }

    private double commits(Map<String, Double> phase) {
        double commits = 0;
        for (Map.Entry<String, Double> unit : phase.entrySet()) {
            String key = unit.getKey() + ".per-commit";
            if (figures.containsKey(key)) {
                commits += unit.getValue() / figure(key);
            }
        }
        return commits;
    }

    public static String report(Exam exam, Plan plan, Result result) {
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "Capacity for %,d candidates: autosave every %.0f s, heartbeat every %.0f s, "
                + "all starting within %.0f s, all submitting within %.0f s; headroom: run at %.0f %% of the cores; "
                + "%.1f cores per replica; every paper graded within %.0f s.%n%n", exam.candidates(), exam.autosaveEverySeconds(),
                exam.heartbeatEverySeconds(), exam.startWindowSeconds(), exam.submitWindowSeconds(), plan.headroom() * 100,
                plan.coresPerReplica(), Math.max(exam.gradeWithinSeconds(), exam.submitWindowSeconds())));
        result.rates().forEach((what, rate) -> out.append(String.format(Locale.ROOT, "  %-32s %,12.0f%n", what, rate)));
        out.append(String.format(Locale.ROOT, "%n| service | busiest phase | cores (with headroom) | replicas |%n|---|---|---|---|%n"));
        for (Service s : result.services()) {
            out.append(String.format(Locale.ROOT, "| %s | %s | %.1f | %d |%n", s.name(), s.busiestPhase(), s.cores(), s.replicas()));
        }
        out.append(String.format(Locale.ROOT, "| Redis | | %.1f | %d shards (masters, each with a replica) |%n",
                result.redisCores(), result.redisShards()));
        out.append(String.format(Locale.ROOT, "| PostgreSQL | | %.1f | one primary, ~%,.0f commits/s at peak |%n",
                result.postgresCores(), result.postgresCommitsPerSecond()));
        out.append(String.format(Locale.ROOT, "%nChart values (k8s/chart/exam-suite), pre-scaled for the exam day:%n%n"));
        out.append(String.format(Locale.ROOT, "autoscaling:%n  enabled: false%nservices:%n"));
        Map<String, String> keys = Map.of("session-service", "session", "answer-service", "answer",
                "submission-service", "submission", "grading-saga", "grading");
        for (Service s : result.services()) {
            out.append(String.format(Locale.ROOT, "  %s:%n    replicas: %d%n    resources:%n      requests: {cpu: %dm, memory: 320Mi}%n"
                    + "      limits: {cpu: %dm, memory: 384Mi}%n", keys.get(s.name()), s.replicas(),
                    Math.round(Math.max(250, s.cores() / s.replicas() * 1000)),
                    Math.round(Math.max(1000, plan.coresPerReplica() * 1000))));
        }
        out.append(String.format(Locale.ROOT, "%nUntested assumptions:%n"));
        result.assumptions().forEach(a -> out.append("  - ").append(a).append(System.lineSeparator()));
        return out.toString();
    }
}
