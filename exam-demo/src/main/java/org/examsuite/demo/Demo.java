package org.examsuite.demo;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import org.examsuite.demo.candidate.Behaviour;
import org.examsuite.demo.candidate.Candidate;
import org.examsuite.demo.candidate.CandidateOutcome;
import org.examsuite.demo.client.ApiClient;
import org.examsuite.demo.client.RetryPolicy;
import org.examsuite.demo.drill.DrillData;
import org.examsuite.demo.drill.FaultImpact;
import org.examsuite.demo.drill.ImpactsFile;
import org.examsuite.demo.drill.InfraFault;
import org.examsuite.demo.drill.Prober;
import org.examsuite.demo.proxy.FaultLog;
import org.examsuite.demo.proxy.FaultProxy;
import org.examsuite.demo.proxy.RandomFaultPlan;
import org.examsuite.demo.report.HtmlReport;
import org.examsuite.demo.report.JsonSummary;
import org.examsuite.demo.report.Progress;
import org.examsuite.demo.report.RunData;
import org.examsuite.demo.report.Summary;
import org.examsuite.demo.setup.ExamSetup;
import org.examsuite.demo.stats.Counters;
import org.examsuite.demo.stats.CpuUse;
import org.examsuite.demo.stats.Latencies;
import org.examsuite.demo.verify.RefusedTokens;
import org.examsuite.demo.verify.ServerErrors;
import org.examsuite.demo.verify.ServiceVerifier;
import org.examsuite.demo.verify.Verification;

/**
 * {@code ./exam demo}: a whole simulated exam on a faulty network, verified lossless, with a report. Needs the
 * suite running ({@code ./exam up}). See {@link DemoOptions#USAGE}.
 */
public final class Demo {
    static final int EXIT_VERIFIED = 0;
    static final int EXIT_FAILED = 1;
    static final int EXIT_USAGE = 2;
    static final int EXIT_NOT_READY = 3;
    /**
     * The candidates' connections to each service at once (a request beyond waits for one). Each costs this process
     * two descriptors (the client's and the proxy's accepted one); a process may hold 20,000 on these machines.
     */
    static final int CONNECTIONS_PER_SERVICE = 1_500;

    private Demo() {
    }

    public static void main(String[] args) {
        int code;
        try {
            code = run(DemoOptions.parse(args, System.getenv()));
        } catch (DemoOptions.UsageException e) {
            if (e.getMessage() != null) {
                System.err.println("exam demo: " + e.getMessage());
            }
            System.err.println(DemoOptions.USAGE);
            code = e.getMessage() == null ? 0 : EXIT_USAGE;
        } catch (ExamSetup.SetupException e) {
            System.err.println("exam demo: " + e.getMessage());
            code = EXIT_NOT_READY;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            code = EXIT_FAILED;
        } catch (Exception e) {
            System.err.println("exam demo: " + e);
            e.printStackTrace(); // a driver bug: where it is matters more than a tidy screen
            code = EXIT_FAILED;
        }
        System.exit(code);
    }

    /** A finished run: its exit code, what it saw, and the report's path (null when it never got that far). */
    record Result(int exitCode, RunData data, Path report) {
    }

    static int run(DemoOptions options) throws IOException, InterruptedException {
        return execute(options).exitCode();
    }

    static Result execute(DemoOptions options) throws IOException, InterruptedException {
        // Under ./exam drill the ingress does not route /q; the drill (drill.Drill) waited for every replica's readiness.
        List<String> notReady = options.drill() ? List.of() : notReady(options);
        if (!notReady.isEmpty()) {
            System.err.println("exam demo: the suite is not ready (" + String.join(", ", notReady) + "); start it with ./exam up");
            return new Result(EXIT_NOT_READY, null, null);
        }
        Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(2));
        try {
            return execute(options, vertx);
        } finally {
            vertx.close();
        }
    }

    private static Result execute(DemoOptions options, Vertx vertx) throws IOException, InterruptedException {
        Counters counters = new Counters();
        Latencies latencies = new Latencies();
        FaultLog faults = new FaultLog();
        Random seeds = new Random(options.seed());
        ApiClient operatorApi = new ApiClient(vertx, ApiClient.newHttpClient(vertx, 16), RetryPolicy.DEFAULT, Duration.ofSeconds(30),
                latencies, counters);
        long startedAt = System.currentTimeMillis();
        System.out.printf(Locale.ROOT, "exam demo: %d candidates, %s network, exam of %d s (+%d s grace), seed %d%n",
                options.candidates(), options.network().name(), options.durationSeconds(), options.graceSeconds(), options.seed());

        ExamSetup setup = new ExamSetup(operatorApi, options.sessionUrl(), options.operatorToken(), seeds.nextLong());
        ExamSetup.Exam exam = setup.createExam("Exam demo " + java.time.Instant.now(), options.durationSeconds(),
                options.graceSeconds());
        List<String> candidateIds = new ArrayList<>();
        for (int i = 1; i <= options.candidates(); i++) {
            candidateIds.add(String.format(Locale.ROOT, "demo-c%05d", i));
        }
        Map<String, String> accessCodes = setup.enroll(exam.examId(), candidateIds);
        System.out.println("exam " + exam.examId() + " created; " + accessCodes.size() + " candidates enrolled");

        try (FaultProxy proxy = new FaultProxy(new RandomFaultPlan(options.network(), seeds.nextLong()), faults)) {
            List<Integer> ports = proxy.start(routes(options));
            System.out.println("fault proxy (" + options.network().name() + ") on 127.0.0.1:" + ports);
            ApiClient candidateApi = new ApiClient(vertx, ApiClient.newHttpClient(vertx, CONNECTIONS_PER_SERVICE), RetryPolicy.DEFAULT,
                    Duration.ofMillis(options.requestTimeoutMs()), latencies, counters);
            long durationMs = options.durationSeconds() * 1000L;
            Candidate.Setting setting = new Candidate.Setting(local(ports.get(0)), local(ports.get(1)), local(ports.get(2)),
                    exam.examId(), exam.questions(), options.graceSeconds() * 1000L, Math.max(800, durationMs / 40), 1_000,
                    4_000, 20_000, Math.max(90_000, durationMs));
            long rampMs = options.rampMs();
            List<CandidateOutcome> outcomes = new ArrayList<>();
            Map<String, Long> behaviours = new TreeMap<>();
            ExecutorService pool = Executors.newCachedThreadPool(candidateThreads());
            long runStart = System.currentTimeMillis();
            for (String candidateId : candidateIds) {
                long seed = seeds.nextLong();
                Behaviour behaviour = Behaviour.draw(new Random(seed));
                behaviours.merge(behaviour.name().toLowerCase(Locale.ROOT), 1L, Long::sum);
                CandidateOutcome outcome = new CandidateOutcome(candidateId, behaviour);
                outcomes.add(outcome);
                pool.execute(new Candidate(setting, candidateApi, counters, seed, outcome, accessCodes.get(candidateId),
                        (long) (new Random(seed ^ 0x5DEECE66DL).nextDouble() * rampMs)));
            }
            pool.shutdown();
            CpuUse cpuAtStart = CpuUse.now();
            Prober prober = options.drill() ? startDrill(options, exam.examId(), outcomes, runStart) : null;
            long expectedEnd = runStart + rampMs + durationMs + options.graceSeconds() * 1000L + 1_000;
            boolean terminal = System.console() != null;
            Verification verification;
            long deadline;
            try (Progress progress = new Progress(System.out, terminal,
                    // The clock until the expected end, then the candidates still finishing (retries, auto-submit)
                    () -> 0.85 * Math.min(1, (System.currentTimeMillis() - runStart) / (double) Math.max(1, expectedEnd - runStart))
                            + 0.15 * counters.get("candidates.done") / Math.max(1, options.candidates()),
                    () -> status(counters, faults, options.candidates(), runStart)).start()) {
                progress.phase("exam");
                if (!awaitCandidates(pool, outcomes, expectedEnd, options.graceSeconds() * 1000L + 1_000,
                        options.waitSeconds() * 1000L)) {
                    pool.shutdownNow();
                    progress.phase("exam (candidates still running at the hard stop were interrupted)");
                }
                CpuUse.now().since(cpuAtStart, counters);
                startSpread(outcomes, runStart, counters);
                progress.examOver("every candidate done; verifying directly against the services and the database");
                deadline = outcomes.stream().mapToLong(o -> o.deadlineMs).max().orElse(expectedEnd);
                // The same line carries on through the verification (directly against the services and the
                // database, not through the proxy), which waits for auto-submits, grading and the archive.
                ServiceVerifier verifier = new ServiceVerifier(operatorApi, new ServiceVerifier.Targets(options.sessionUrl(),
                        options.submissionUrl(), options.gradingUrl(), options.jdbcUrl(), options.dbUser(),
                        options.dbPassword(), options.papersTable()), options.operatorToken(), progress::verifying);
                verification = verifier.verify(exam.examId(), outcomes, exam.questions(), options.graceSeconds() * 1000L,
                        deadline + options.graceSeconds() * 1000L + options.waitSeconds() * 1000L);
                ServerErrors.problem(latencies.samples()).ifPresent(verification.problems::add);
                RefusedTokens.problem(latencies.samples()).ifPresent(verification.problems::add);
                progress.done("t+" + (System.currentTimeMillis() - runStart) / 1000 + "s | exam over; checked against the"
                        + " services and the database (summary below)");
            }
            DrillData drill = prober == null ? null : finishDrill(options, prober, latencies);
            RunData run = new RunData(options.candidates(), options.network().name(), options.seed(), options.durationSeconds(),
                    options.graceSeconds(), exam.examId(), startedAt, deadline, System.currentTimeMillis(), counters, faults,
                    latencies, verification, behaviours, drill);
            System.out.print(Summary.render(run));
            Path report = HtmlReport.write(run, options.reportDir());
            System.out.println("\nreport: " + report.toAbsolutePath());
            if (options.jsonFile() != null) {
                JsonSummary.write(run, options.jsonFile());
                System.out.println("summary (JSON): " + options.jsonFile().toAbsolutePath());
            }
            return new Result(verification.ok() ? EXIT_VERIFIED : EXIT_FAILED, run, report);
        }
    }

    /**
     * Waits for the candidates until {@code wait} after the last deadline (+ {@code graceMs}) any of them was given —
     * a candidate who got in late in a slow surge has a later deadline — and not before {@code expectedEnd} + wait.
     */
    static boolean awaitCandidates(ExecutorService pool, List<CandidateOutcome> outcomes, long expectedEnd, long graceMs,
            long wait) throws InterruptedException {
        while (true) {
            long lastDeadline = outcomes.stream().mapToLong(o -> o.deadlineMs).max().orElse(0);
            long hardStop = Math.max(expectedEnd, lastDeadline + graceMs) + wait;
            long left = hardStop - System.currentTimeMillis();
            if (left <= 0) {
                return pool.isTerminated();
            }
            if (pool.awaitTermination(Math.min(left, 5_000), TimeUnit.MILLISECONDS)) {
                return true;
            }
        }
    }

    /** When candidates got into their sessions, ms after the first could: start.p50-ms, start.max-ms, start.missing. */
    static void startSpread(List<CandidateOutcome> outcomes, long runStart, Counters counters) {
        long[] after = outcomes.stream().filter(o -> o.startedAtMs > 0).mapToLong(o -> o.startedAtMs - runStart).sorted()
                .toArray();
        counters.add("start.missing", outcomes.size() - after.length);
        if (after.length > 0) {
            counters.add("start.p50-ms", after[after.length / 2]);
            counters.add("start.max-ms", after[after.length - 1]);
        }
    }

    /**
     * ./exam drill: tells the drill's fault schedule that the candidates start (DIR/exam-started holds the epoch ms)
     * and probes every service through the ingress from now on.
     */
    private static Prober startDrill(DemoOptions options, String examId, List<CandidateOutcome> outcomes, long runStart)
            throws IOException {
        Files.createDirectories(options.drillDir());
        Path started = options.drillDir().resolve("exam-started");
        Files.writeString(started.resolveSibling("exam-started.tmp"), Long.toString(runStart));
        Files.move(started.resolveSibling("exam-started.tmp"), started, StandardCopyOption.REPLACE_EXISTING,
                StandardCopyOption.ATOMIC_MOVE);
        java.util.function.Supplier<String> probeSession = () -> outcomes.stream().map(o -> o.sessionId)
                .filter(java.util.Objects::nonNull).findFirst().orElse(null);
        return new Prober(options.sessionUrl(), options.operatorToken(), 500, Duration.ofSeconds(2))
                .start(Prober.suiteTargets(examId, probeSession));
    }

    /** Stops the probes and reads the faults the drill injected (waiting for its schedule to end, 3 min at most). */
    private static DrillData finishDrill(DemoOptions options, Prober prober, Latencies latencies) throws IOException,
            InterruptedException {
        Path tsv = options.drillDir().resolve("faults.tsv");
        Path done = options.drillDir().resolve("faults.tsv.done");
        long until = System.currentTimeMillis() + 180_000;
        while (!Files.exists(done) && System.currentTimeMillis() < until) {
            Thread.sleep(1_000);
        }
        prober.close();
        List<Prober.Probe> probes = prober.probes();
        List<Latencies.Sample> samples = latencies.samples();
        List<FaultImpact> impacts = InfraFault.read(tsv).stream().map(f -> FaultImpact.of(f, probes, samples)).toList();
        ImpactsFile.write(options.drillDir().resolve("impacts.tsv"), impacts);
        return new DrillData(options.drillSetup() == null ? "" : options.drillSetup(), impacts, probes, Files.exists(done));
    }

    private static String status(Counters counters, FaultLog faults, int candidates, long runStart) {
        long done = counters.get("candidates.done");
        return String.format(Locale.ROOT, "t+%ds | started %d | autosaves %d | retries %d | faults %d | submits %d | done %s %d/%d",
                (System.currentTimeMillis() - runStart) / 1000, counters.get("candidates.started"), counters.get("autosave.ok"),
                counters.sumPrefix("retry."), faults.total(), counters.get("submits"),
                Progress.bar(done / (double) candidates, 10), done, candidates);
    }

    private static List<FaultProxy.Route> routes(DemoOptions options) {
        int base = options.proxyPortBase();
        return List.of(new FaultProxy.Route("session", base == 0 ? 0 : base + 1, options.sessionUrl()),
                new FaultProxy.Route("answer", base == 0 ? 0 : base + 2, options.answerUrl()),
                new FaultProxy.Route("submission", base == 0 ? 0 : base + 3, options.submissionUrl()),
                new FaultProxy.Route("grading", base == 0 ? 0 : base + 4, options.gradingUrl()));
    }

    private static URI local(int port) {
        return URI.create("http://127.0.0.1:" + port);
    }

    /** The services whose readiness check does not answer 200. */
    private static List<String> notReady(DemoOptions options) throws InterruptedException {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        List<String> missing = new ArrayList<>();
        for (URI base : List.of(options.sessionUrl(), options.answerUrl(), options.submissionUrl(), options.gradingUrl())) {
            try {
                HttpResponse<Void> response = http.send(HttpRequest.newBuilder(base.resolve("/q/health/ready"))
                        .timeout(Duration.ofSeconds(5)).GET().build(), HttpResponse.BodyHandlers.discarding());
                if (response.statusCode() != 200) {
                    missing.add(base + " answers " + response.statusCode());
                }
            } catch (IOException e) {
                missing.add(base + " unreachable");
            }
        }
        return missing;
    }

    /**
     * A thread per candidate, sleeping through its think time: a virtual thread where the JDK has them (21 and
     * later; looked up so that the driver still runs on 17), else a daemon platform thread with a small stack.
     */
    static java.util.concurrent.ThreadFactory candidateThreads() {
        try {
            Object builder = Thread.class.getMethod("ofVirtual").invoke(null);
            Class<?> ofVirtual = Class.forName("java.lang.Thread$Builder$OfVirtual");
            builder = ofVirtual.getMethod("name", String.class, long.class).invoke(builder, "candidate-", 1L);
            return (java.util.concurrent.ThreadFactory) Class.forName("java.lang.Thread$Builder").getMethod("factory")
                    .invoke(builder);
        } catch (ReflectiveOperationException e) {
            java.util.concurrent.atomic.AtomicInteger counter = new java.util.concurrent.atomic.AtomicInteger();
            return runnable -> {
                Thread thread = new Thread(null, runnable, "candidate-" + counter.incrementAndGet(), 256 * 1024);
                thread.setDaemon(true);
                return thread;
            };
        }
    }
}
