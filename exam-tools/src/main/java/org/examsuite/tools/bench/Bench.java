package org.examsuite.tools.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.examsuite.tools.host.Fail;
import org.examsuite.tools.host.Procs;
import org.examsuite.tools.host.Say;
import org.examsuite.tools.host.Workspace;

/**
 * ./exam bench [--native | --compare [--rounds N]] [NAME...]: each NAME's benchmark (bench/NAME's
 * README; {@link Benchmarks}) on the JVM build, on the native executables, or on both interleaved
 * (JVM, native, JVM, native, ...; N rounds, 2 by default) with one table of both; the run's tables,
 * with the machine they ran on, are appended to docs/benchmarks.md. Each benchmark writes its own
 * table under bench/NAME/results/, which this reads back.
 */
public final class Bench {
    static final List<String> DEFAULT_NAMES = List.of("autosave", "deadline-storm", "saga", "heartbeat", "live", "start-surge");
    private static final String USAGE = "./exam bench [--native | --compare [--rounds N]] [NAME...]";
    private static final DateTimeFormatter MINUTE = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm'Z'").withZone(ZoneOffset.UTC);
    private static final String JVM = "jvm";
    private static final String NATIVE = "native";

    private final Workspace ws;
    private final Procs procs;
    private final BenchServices services;
    private final Clock clock;
    private final Duration samplePeriod;
    private final Path proc;
    private final Function<String, Optional<Benchmark>> benchmarks;

    public Bench(Workspace ws, Procs procs, BenchServices services) {
        this(ws, procs, services, Clock.systemUTC(), Duration.ofSeconds(1), Path.of("/proc"), Benchmarks::of);
    }

    /** With the clock of the run's heading, the RSS sampler's period, the /proc to read and the benchmarks (tests). */
    Bench(Workspace ws, Procs procs, BenchServices services, Clock clock, Duration samplePeriod, Path proc,
            Function<String, Optional<Benchmark>> benchmarks) {
        this.ws = ws;
        this.procs = procs;
        this.services = services;
        this.clock = clock;
        this.samplePeriod = samplePeriod;
        this.proc = proc;
        this.benchmarks = benchmarks;
    }

    /** What to run: NAMES (none: the default six), on the native executables only, or compared. */
    public record Options(List<String> names, boolean nativeOnly, boolean compare, Integer rounds) {
        public Options {
            names = names == null ? List.of() : List.copyOf(names);
            if (nativeOnly && compare) {
                throw Fail.usage("--native and --compare exclude each other (" + USAGE + ")");
            }
            if (rounds != null && rounds < 1) {
                throw Fail.usage("--rounds takes a number of 1 or more, not " + rounds);
            }
            for (String name : names) {
                if (name.startsWith("-")) {
                    throw Fail.usage("unknown option '" + name + "' (" + USAGE + ")");
                }
            }
        }

        /** cmd_bench's own reading of its arguments (the last of --native and --compare counts). */
        public static Options parse(List<String> args) {
            List<String> names = new ArrayList<>();
            boolean nativeOnly = false;
            boolean compare = false;
            Integer rounds = null;
            for (int i = 0; i < args.size(); i++) {
                String arg = args.get(i);
                switch (arg) {
                    case "--native" -> {
                        nativeOnly = true;
                        compare = false;
                    }
                    case "--compare" -> {
                        compare = true;
                        nativeOnly = false;
                    }
                    case "--rounds" -> {
                        String n = i + 1 < args.size() ? args.get(++i) : "";
                        if (!n.matches("[0-9]+") || n.length() > 9) {
                            throw Fail.usage("--rounds takes a number");
                        }
                        rounds = Integer.parseInt(n);
                    }
                    default -> names.add(arg); // an unknown -option: the constructor says so
                }
            }
            return new Options(names, nativeOnly, compare, rounds);
        }

        /** Rounds of each bench: as given, else 2 when comparing, else 1. */
        public int roundCount() {
            return rounds != null ? rounds : compare ? 2 : 1;
        }

        List<String> flavours() {
            return compare ? List.of(JVM, NATIVE) : nativeOnly ? List.of(NATIVE) : List.of(JVM);
        }

        /** The benches to run, each one of {@link Benchmarks}. */
        public List<String> benchNames() {
            return benchNames(Benchmarks::of);
        }

        List<String> benchNames(Function<String, Optional<Benchmark>> benchmarks) {
            List<String> chosen = names.isEmpty() ? DEFAULT_NAMES : names;
            for (String name : chosen) {
                if (benchmarks.apply(name).isEmpty()) {
                    throw Fail.usage("no benchmark '" + name + "' (the benchmarks: " + String.join(", ", Benchmarks.NAMES) + ")");
                }
            }
            return chosen;
        }

        /** The arguments as the run's heading quotes them ("./exam bench ARGS"); the names when none. */
        String quoted() {
            List<String> words = new ArrayList<>();
            if (nativeOnly) {
                words.add("--native");
            }
            if (compare) {
                words.add("--compare");
            }
            if (rounds != null) {
                words.add("--rounds");
                words.add(rounds.toString());
            }
            words.addAll(names);
            return String.join(" ", words.isEmpty() ? DEFAULT_NAMES : words);
        }
    }

    /** Runs the benches of O and appends their tables to docs/benchmarks.md; 1 if any failed. */
    public int run(Options o) {
        List<String> names = o.benchNames(benchmarks);
        if (!procs.has("java")) { // the benchmarks start the JVM services and their JDK drivers with it
            throw new Fail("a JDK 17 or newer is needed (java not found on PATH)");
        }
        exportJavaOpts();
        List<String> flavours = o.flavours();
        boolean endsNative = flavours.get(flavours.size() - 1).equals(NATIVE);
        Set<String> missing = new TreeSet<>();
        for (String name : names) {
            for (String svc : servicesOf(name)) {
                if (!Files.isExecutable(services.nativeExecutable(svc))) {
                    missing.add(svc);
                }
            }
        }
        if (endsNative && !missing.isEmpty()) {
            services.buildNative(List.copyOf(missing));
        }

        Markdown section = new Markdown();
        header(section, o, names, endsNative);
        Path readyFile = ws.runDir().resolve("bench-ready");
        ws.put("BENCH_READY_FILE", readyFile.toString());
        CompareTable table = new CompareTable();
        List<String> runs = new ArrayList<>();
        boolean failed = false;
        for (String name : names) {
            for (int round = 1; round <= o.roundCount(); round++) {
                for (String flavour : flavours) {
                    Map<String, String> env = flavourEnv(flavour);
                    Say.say("== benchmark: " + name + " (" + flavour + (o.compare() ? ", round " + round : "") + ")");
                    delete(readyFile);
                    Benchmark benchmark = benchmarks.apply(name).orElseThrow();
                    // the services a benchmark starts are this process's children
                    PeakRss sampler = new PeakRss(() -> Stream.of(ProcessHandle.current()), samplePeriod, proc);
                    int rc;
                    Map<String, Long> peaks;
                    try {
                        rc = run(name, benchmark, env);
                    } finally {
                        peaks = sampler.stop();
                    }
                    if (rc != 0) {
                        Say.warn("benchmark " + name + " (" + flavour + ") failed");
                        failed = true;
                        runs.add(name + " " + flavour + ": FAILED");
                        if (!o.compare()) {
                            section.line("").line("### " + name).line("")
                                    .line("FAILED (see the output of ./exam bench " + name + ")");
                        }
                        continue;
                    }
                    Optional<Path> newest = newestResult(name);
                    runs.add(name + " " + flavour + ": " + newest.map(p -> ws.home().relativize(p).toString()).orElse(""));
                    List<String[]> ready = readyLines(readyFile);
                    if (o.compare()) {
                        table.addAll(rows(name, flavour, newest, ready, peaks));
                    } else {
                        section.line("").line("### " + name + (flavour.equals(JVM) ? "" : " (native)")).line("");
                        newest.ifPresent(p -> section.raw(read(p)));
                        if (!peaks.isEmpty()) {
                            section.line("").line(peakLine(flavour, peaks, ready));
                        }
                    }
                }
            }
        }
        if (o.compare()) {
            section.line("")
                    .line("Each bench ran " + o.roundCount() + "× JVM then native, interleaved; values in run order (from 3 on:"
                            + " median (min–max)). Time to ready: from the process's start to /q/health/ready 200; idle RSS:"
                            + " 5 s after ready, before any load; peak RSS: VmHWM over the run. Targets: ready ≤ 300 ms and"
                            + " idle RSS ≤ 100 MiB per service; 10,000 live sockets on one session-service within 300 MiB.")
                    .line("");
            table.lines().forEach(section::line);
            section.line("").line("The runs' own tables: " + String.join("; ", runs) + ".");
        }
        Path out = ws.path("docs/benchmarks.md");
        try {
            Workspace.mkdirs(out.getParent());
            Files.writeString(out, section.toString(), StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new Fail("cannot append to " + out + ": " + e.getMessage());
        }
        Say.say("appended this run's tables to docs/benchmarks.md");
        return failed ? 1 : 0;
    }

    /** Runs a benchmark with the workspace's environment and the flavour's; 1 when it failed (it says why). */
    private int run(String name, Benchmark benchmark, Map<String, String> flavourEnv) {
        Map<String, String> env = new LinkedHashMap<>(ws.env());
        env.putAll(flavourEnv);
        try (BenchRun run = new BenchRun(name, ws.home(), env, procs, services, new ProcFs(proc), Clock.systemUTC())) { // the stamp: the real time, not the heading's
            benchmark.run(run);
            return 0;
        } catch (Fail e) {
            Say.err("bench " + name + ": " + e.getMessage());
            return 1;
        } catch (Exception e) {
            Say.err("bench " + name + ": " + e);
            return 1;
        }
    }

    /** The services under test run with the JVM flags ./exam up gives them (the RSS budget), unless set. */
    private void exportJavaOpts() {
        ws.put("JAVA_OPTS", ws.env("JAVA_OPTS", services.jvmOpts("answer-service")));
        ws.put("JAVA_OPTS_ANSWER", ws.env("JAVA_OPTS_ANSWER", services.jvmOpts("answer-service")));
        ws.put("JAVA_OPTS_SUBMISSION", ws.env("JAVA_OPTS_SUBMISSION", services.jvmOpts("submission-service")));
        ws.put("JAVA_OPTS_GRADING", ws.env("JAVA_OPTS_GRADING", services.jvmOpts("grading-saga")));
        ws.put("JAVA_OPTS_SESSION", ws.env("JAVA_OPTS_SESSION", services.jvmOpts("session-service")));
    }

    /** bench_services: the services a benchmark starts. */
    List<String> servicesOf(String bench) {
        return switch (bench) {
            case "autosave" -> List.of("answer-service");
            case "deadline-storm" -> List.of("answer-service", "submission-service");
            case "saga", "exam-results" -> List.of("grading-saga");
            case "ready" -> Stream.of(ws.env("READY_SERVICES", String.join(" ", services.all())).split("\\s+"))
                    .filter(s -> !s.isEmpty()).toList();
            default -> List.of("session-service");
        };
    }

    /**
     * bench_flavour: native → BENCH_COMMAND_&lt;SESSION|ANSWER|...&gt; = the native command and
     * JAVA_OPTS* saying so in the reports; jvm → no BENCH_COMMAND_* at all (one the user exported
     * included), so the benchmarks run their own java -jar.
     */
    private Map<String, String> flavourEnv(String flavour) {
        Map<String, String> env = new LinkedHashMap<>();
        for (String svc : services.all()) {
            String var = svc.split("-", 2)[0].toUpperCase(Locale.ROOT);
            if (flavour.equals(JVM)) {
                ws.remove("BENCH_COMMAND_" + var);
                continue;
            }
            env.put("BENCH_COMMAND_" + var, services.nativeCommand(svc));
            env.put("JAVA_OPTS_" + var, "(native executable) " + services.nativeOpts(svc));
        }
        if (flavour.equals(NATIVE)) {
            env.put("JAVA_OPTS", "(native executable) " + services.nativeOpts("answer-service"));
        }
        return env;
    }

    private void header(Markdown section, Options o, List<String> names, boolean endsNative) {
        section.line("")
                .line("## " + (o.compare() ? "Native against JVM: " : "") + "Run of " + MINUTE.format(clock.instant())
                        + " (./exam bench " + o.quoted() + ")")
                .line("");
        new Machine(ws, procs, proc).lines().forEach(section::line);
        if (!endsNative) {
            return;
        }
        Set<String> used = new TreeSet<>();
        names.forEach(name -> used.addAll(servicesOf(name)));
        for (String svc : used) {
            Path exe = services.nativeExecutable(svc);
            String command = services.nativeCommand(svc).replaceFirst(Pattern.quote(ws.home() + "/"), "");
            section.line(svc + " native: " + sizeMb(exe) + " MB, built " + modified(exe) + ", run as `" + command + "`.");
            if (services.sourcesNewer(exe, svc)) {
                section.line("**" + svc + "'s native executable is older than its sources.**");
            }
            if (o.compare() && services.sourcesNewer(ws.path(svc + "/target/quarkus-app/quarkus-run.jar"), svc)) {
                section.line("**" + svc + "'s JVM build is older than its sources.**");
            }
        }
    }

    /** du -m: the executable's disk usage in MiB, rounded up. */
    private String sizeMb(Path file) {
        try {
            String out = procs.capture(List.of("du", "-m", file.toString())).out().strip();
            if (!out.isEmpty()) {
                return out.split("\\s+")[0];
            }
        } catch (Fail e) {
            // no du: the apparent size instead
        }
        try {
            return Long.toString((Files.size(file) + (1 << 20) - 1) >> 20);
        } catch (IOException e) {
            return "?";
        }
    }

    private String modified(Path file) {
        try {
            return MINUTE.format(Files.getLastModifiedTime(file).toInstant());
        } catch (IOException e) {
            return "?";
        }
    }

    /** The newest bench/NAME/results/*.md (ls -t | head -n 1: newest first, equal times by name). */
    private Optional<Path> newestResult(String name) {
        Path dir = ws.path("bench/" + name + "/results");
        if (!Files.isDirectory(dir)) {
            return Optional.empty();
        }
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.getFileName().toString().endsWith(".md") && !p.getFileName().toString().startsWith("."))
                    .filter(Files::isRegularFile)
                    .min(Comparator.comparing(Bench::mtime).reversed().thenComparing(p -> p.getFileName().toString()));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private static FileTime mtime(Path p) {
        try {
            return Files.getLastModifiedTime(p);
        } catch (IOException e) {
            return FileTime.fromMillis(0);
        }
    }

    /** BENCH_READY_FILE's "NAME READY_MS IDLE_RSS_KIB" lines (bench_ready wrote them), split. */
    private static List<String[]> readyLines(Path file) {
        if (!Files.isRegularFile(file)) {
            return List.of();
        }
        return read(file).lines().map(String::trim).filter(l -> !l.isEmpty()).map(l -> l.split("\\s+")).toList();
    }

    /** The compare table's values of one run: the headline, each service's ready time and idle and peak RSS. */
    static List<CompareTable.Row> rows(String name, String flavour, Optional<Path> newest, List<String[]> ready,
            Map<String, Long> peaks) {
        List<CompareTable.Row> rows = new ArrayList<>();
        newest.ifPresent(p -> Headline.of(name, read(p).lines().toList())
                .forEach(m -> rows.add(new CompareTable.Row(name, m.name(), flavour, m.value()))));
        for (String[] r : ready) {
            rows.add(new CompareTable.Row(name, r[0] + ": time to ready (ms)", flavour, Awk.number(word(r, 1))));
            rows.add(new CompareTable.Row(name, r[0] + ": idle RSS (MiB)", flavour, Awk.asPrinted(Awk.number(word(r, 2)) / 1024)));
        }
        peaks.forEach((svc, kib) -> rows.add(new CompareTable.Row(name, svc + ": peak RSS (MiB)", flavour, Awk.asPrinted(kib / 1024.0))));
        return rows;
    }

    /** The line under a bench's own table: each service's peak RSS, and its start when the bench timed it. */
    private String peakLine(String flavour, Map<String, Long> peaks, List<String[]> ready) {
        String flags = flavour.equals(NATIVE) ? "native executables, as above"
                : "flags of ./exam up: submission-service " + ws.env("JAVA_OPTS_SUBMISSION") + "; answer-service "
                        + ws.env("JAVA_OPTS") + "; session-service and grading-saga " + ws.env("JAVA_OPTS_SESSION");
        List<String> each = new ArrayList<>();
        peaks.forEach((svc, kib) -> each.add(svc + " " + kib / 1024 + " MiB"));
        StringBuilder line = new StringBuilder("Peak RSS (VmHWM) of each service during this benchmark (" + flags + "): ")
                .append(String.join(", ", each));
        for (String[] r : ready) {
            line.append("; ").append(r[0]).append(" ready ").append(Awk.integer(Awk.number(word(r, 1))))
                    .append(" ms after its start, idle RSS ").append(Awk.integer(Awk.number(word(r, 2)) / 1024)).append(" MiB");
        }
        return line.append('.').toString();
    }

    private static String word(String[] words, int i) {
        return i < words.length ? words[i] : "";
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new Fail("cannot read " + file + ": " + e.getMessage());
        }
    }

    private static void delete(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            throw new Fail("cannot remove " + file + ": " + e.getMessage());
        }
    }

    /** The section a run appends, built line by line as the bash's say did. */
    private static final class Markdown {
        private final StringBuilder text = new StringBuilder();

        Markdown line(String line) {
            text.append(line).append('\n');
            return this;
        }

        /** A file as it is (cat). */
        Markdown raw(String content) {
            text.append(content);
            return this;
        }

        @Override
        public String toString() {
            return text.toString();
        }
    }
}
