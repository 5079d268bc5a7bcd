package org.examsuite.tools.bench;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.examsuite.tools.host.Fail;
import org.examsuite.tools.host.Procs;
import org.examsuite.tools.host.Say;

/**
 * One run of one benchmark: its environment (the knobs of its README, the flavour's
 * BENCH_COMMAND_* and JAVA_OPTS*), its files (lib.sh's bench_start: STAMP, a scratch WORK
 * directory, RESULTS and the report OUT) and what it started, all undone by {@link #close()}.
 */
final class BenchRun implements AutoCloseable {
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

    private final String name;
    private final Path home;
    private final Map<String, String> env;
    private final Procs procs;
    private final BenchServices services;
    private final ProcFs proc;
    private final String stamp;
    private final Path work;
    private final Path results;
    private final Deque<Runnable> cleanups = new ArrayDeque<>();
    private final List<ServiceProcess> started = new ArrayList<>();

    /** NAME's run with ENV (what its processes get), its scratch directory made under TMPDIR. */
    BenchRun(String name, Path home, Map<String, String> env, Procs procs, BenchServices services, ProcFs proc, Clock clock) {
        this.name = name;
        this.home = home;
        this.env = new LinkedHashMap<>(env);
        this.procs = procs;
        this.services = services;
        this.proc = proc;
        this.stamp = STAMP.format(clock.instant());
        this.results = home.resolve("bench").resolve(name).resolve("results");
        try {
            Path tmp = Path.of(env.getOrDefault("TMPDIR", "").isEmpty() ? "/tmp" : env.get("TMPDIR"));
            this.work = Files.createTempDirectory(tmp, name + "-bench.");
            Files.createDirectories(results);
        } catch (IOException e) {
            throw new Fail("cannot make the bench's directories: " + e.getMessage());
        }
    }

    String name() {
        return name;
    }

    Path home() {
        return home;
    }

    /** bench/NAME: the bench's own assets (wrk scripts, JDK drivers). */
    Path dir() {
        return home.resolve("bench").resolve(name);
    }

    String stamp() {
        return stamp;
    }

    Path work() {
        return work;
    }

    Path results() {
        return results;
    }

    /** results/STAMP.md: the table ./exam bench reads. */
    Path out() {
        return results.resolve(stamp + ".md");
    }

    Procs procs() {
        return procs;
    }

    ProcFs proc() {
        return proc;
    }

    BenchServices services() {
        return services;
    }

    /** KEY as ${KEY:-FALLBACK} read it: unset and empty alike give FALLBACK. */
    String env(String key, String fallback) {
        String v = env.get(key);
        return v == null || v.isEmpty() ? fallback : v;
    }

    String env(String key) {
        return env(key, "");
    }

    /** KEY as ${KEY-FALLBACK} read it: set to empty stays empty (JAVA_OPTS= runs the JVM's defaults). */
    String envOrUnset(String key, String fallback) {
        return env.containsKey(key) ? env.get(key) : fallback;
    }

    int envInt(String key, int fallback) {
        String v = env(key);
        try {
            return v.isEmpty() ? fallback : Integer.parseInt(v.trim());
        } catch (NumberFormatException e) {
            throw Fail.usage(key + " must be a whole number, not '" + v + "'");
        }
    }

    /** KEY's words ("50 200 1000"), FALLBACK's when unset; each a whole number. */
    List<Integer> envInts(String key, String fallback) {
        List<Integer> out = new ArrayList<>();
        for (String w : env(key, fallback).trim().split("\\s+")) {
            try {
                out.add(Integer.parseInt(w));
            } catch (NumberFormatException e) {
                throw Fail.usage(key + " takes whole numbers, not '" + w + "'");
            }
        }
        return out;
    }

    /** The environment its processes get, with EXTRA on top. */
    Map<String, String> childEnv(Map<String, String> extra) {
        Map<String, String> all = new LinkedHashMap<>(env);
        all.putAll(extra);
        return all;
    }

    /** Sets KEY for every later process, unless already set (the scripts' export KEY=${KEY:-v}). */
    String export(String key, String fallback) {
        env.put(key, env(key, fallback));
        return env.get(key);
    }

    /** bench_start's check: every command named is installed. */
    void need(String... commands) {
        for (String command : commands) {
            if (!procs.has(command)) {
                throw new Fail(command + " is needed (the benchmark's README says what to install)");
            }
        }
    }

    KeyFiles keys() {
        return new KeyFiles(work);
    }

    /** The bench's database DB_NAME (default DEFAULT_DB) on EXAM_DB_HOST as EXAM_DB_USER. */
    Psql psql(String defaultDb) {
        return new Psql(procs, env("EXAM_DB_HOST", "127.0.0.1"), env("EXAM_DB_USER", "postgres"), env("DB_NAME", defaultDb));
    }

    /** JAR (another build, for an A/B), else MODULE's quarkus-run.jar. */
    Path jar(String module) {
        String jar = env("JAR");
        return jar.isEmpty() ? app(module) : Path.of(jar);
    }

    /** MODULE's quarkus-run.jar under APPS when set (copies a rebuild cannot swap under a run), else in the tree. */
    Path app(String module) {
        return Path.of(env("APPS", home.toString())).resolve(module + "/target/quarkus-app/quarkus-run.jar");
    }

    /** MODULE's jar built (the scripts' ./mvnw package) when it is missing and no other build was named. */
    void buildWhenMissing(Path jar, String module) {
        if (Files.isRegularFile(jar) || !env("APPS").isEmpty()) {
            return;
        }
        int rc = procs.run(List.of(home.resolve("mvnw").toString(), "-B", "-q", "-pl", module, "-am", "package", "-DskipTests"),
                Map.of(), home);
        if (rc != 0) {
            throw new Fail("building " + module + " failed");
        }
    }

    /**
     * MODULE built for a benchmark with PROPERTY=true, the property that activates MODULE's profile for code only a
     * bench build carries (answer-service's ceiling probe), which builds into MODULE/target/bench; every run (the
     * build takes the tree as it is). JAR when given instead.
     */
    Path benchBuild(String module, String property) {
        String given = env("JAR");
        if (!given.isEmpty()) {
            return Path.of(given);
        }
        int rc = procs.run(List.of(home.resolve("mvnw").toString(), "-B", "-q", "-pl", module, "-am", "package", "-DskipTests",
                "-D" + property + "=true"), Map.of(), home);
        if (rc != 0) {
            throw new Fail("building " + module + " with " + property + " failed");
        }
        return home.resolve(module + "/target/bench/quarkus-app/quarkus-run.jar");
    }

    /**
     * bench_command: SERVICE's start command with the system properties PROPS — BENCH_COMMAND_&lt;SESSION|
     * ANSWER|SUBMISSION|GRADING&gt; when set (./exam bench --native: the native executable and its
     * flags), else java FLAGS PROPS -jar JAR.
     */
    List<String> command(String service, String flags, Path jar, String... props) {
        List<String> command = new ArrayList<>();
        String given = env(commandVariable(service));
        if (!given.isEmpty()) {
            command.addAll(words(given));
            command.addAll(List.of(props));
            return command;
        }
        command.add("java");
        command.addAll(words(flags));
        command.addAll(List.of(props));
        command.add("-Dexam.service=" + service);
        command.addAll(List.of("-jar", jar.toString()));
        return command;
    }

    /** Does SERVICE run as a native executable in this run? */
    boolean nativeFlavour(String service) {
        return !env(commandVariable(service)).isEmpty();
    }

    private static String commandVariable(String service) {
        return "BENCH_COMMAND_" + service.split("-", 2)[0].toUpperCase(java.util.Locale.ROOT);
    }

    /** SERVICE's JVM flags: KEYS' first set value (JAVA_OPTS_ANSWER, JAVA_OPTS), else ./exam up's. */
    String jvmFlags(String service, String... keys) {
        for (String key : keys) {
            if (!env(key).isEmpty()) {
                return env(key);
            }
        }
        return services.jvmOpts(service);
    }

    static List<String> words(String s) {
        return s.isBlank() ? List.of() : Arrays.asList(s.strip().split("\\s+"));
    }

    /** Starts NAME in the background with this run's environment and EXTRA, its output in WORK/LOG; stopped by close(). */
    ServiceProcess start(String name, List<String> command, Map<String, String> extra, String log) {
        ServiceProcess p = ServiceProcess.start(name, command, childEnv(extra), home, work.resolve(log));
        started.add(p);
        return p;
    }

    /** bench_ready of each of SERVICES (each with its port); their times to ready (ms). */
    Map<ServiceProcess, Long> awaitReady(Map<ServiceProcess, Integer> services) {
        return new Ready(proc, envInt("READY_TIMEOUT", 240), env("BENCH_READY_FILE")).await(services);
    }

    long awaitReady(ServiceProcess service, int port) {
        return awaitReady(Map.of(service, port)).get(service);
    }

    /** Runs COMMAND in the foreground with EXTRA, its stdout and stderr into OUT (null: this terminal's); its exit code. */
    int exec(List<String> command, Map<String, String> extra, Path out) {
        ProcessBuilder pb = new ProcessBuilder(command).directory(home.toFile()).redirectInput(new File("/dev/null"));
        if (out == null) {
            pb.inheritIO().redirectInput(new File("/dev/null"));
        } else {
            pb.redirectErrorStream(true).redirectOutput(out.toFile());
        }
        pb.environment().clear();
        pb.environment().putAll(childEnv(extra));
        try {
            return pb.start().waitFor();
        } catch (IOException e) {
            throw new Fail("cannot run " + command.get(0) + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Fail("interrupted", 130);
        }
    }

    /** COMMAND's stdout and stderr ("" when it fails or is missing: the scripts' 2>/dev/null || true). */
    String output(List<String> command) {
        Path out = work.resolve("output.txt");
        try {
            return exec(command, Map.of(), out) == 0 ? read(out) : "";
        } catch (Fail e) {
            return "";
        }
    }

    /** A JDK driver (java FILE.java ARGS...) in the foreground; a failure when it fails (set -e). */
    void java(List<String> args, Path out) {
        java(List.of(), args, out);
    }

    void java(List<String> jvmArgs, List<String> args, Path out) {
        List<String> command = new ArrayList<>(List.of("java"));
        command.addAll(jvmArgs);
        command.addAll(args);
        int rc = exec(command, Map.of(), out);
        if (rc != 0) {
            throw new Fail(Path.of(args.get(0)).getFileName() + " " + (args.size() > 1 ? args.get(1) + " " : "") + "failed (exit " + rc + ")");
        }
    }

    /** A JDK driver's stdout (the $(java ...) of the scripts); a failure when it fails. */
    String javaOutput(List<String> args) {
        List<String> command = new ArrayList<>(List.of("java"));
        command.addAll(args);
        Path out = work.resolve("java-output.txt");
        stdout(command, out);
        return read(out).strip();
    }

    /** COMMAND's stdout into OUT (its stderr to this terminal's); a failure when it fails. */
    void stdout(List<String> command, Path out) {
        ProcessBuilder pb = new ProcessBuilder(command).directory(home.toFile()).redirectOutput(out.toFile())
                .redirectError(ProcessBuilder.Redirect.INHERIT).redirectInput(new File("/dev/null"));
        pb.environment().clear();
        pb.environment().putAll(env);
        try {
            int rc = pb.start().waitFor();
            if (rc != 0) {
                throw new Fail(Path.of(command.get(command.size() > 1 ? 1 : 0)).getFileName() + " failed (exit " + rc + ")");
            }
        } catch (IOException e) {
            throw new Fail("cannot run " + command.get(0) + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Fail("interrupted", 130);
        }
    }

    /** GET URL's body, "" when it does not answer 2xx (curl -sf). */
    static String get(String url) {
        return Http.get(url);
    }

    /** redis-cli with ARGS against REDIS_HOST:REDIS_PORT (HOST/PORT given), its output ("" when it fails). */
    String redisCli(List<String> args) {
        List<String> command = new ArrayList<>(List.of("redis-cli"));
        command.addAll(args);
        try {
            Procs.Result r = procs.capture(command);
            return r.ok() ? r.out() : "";
        } catch (Fail e) {
            return "";
        }
    }

    /** Deletes the keys of Redis db DB matching PATTERN (redis-cli --scan | xargs DEL), quietly. */
    void redisDeleteMatching(String host, int port, int db, String pattern) {
        List<String> base = List.of("-h", host, "-p", Integer.toString(port), "-n", Integer.toString(db));
        List<String> scan = new ArrayList<>(base);
        scan.addAll(List.of("--scan", "--pattern", pattern));
        List<String> keys = redisCli(scan).lines().filter(l -> !l.isEmpty()).toList();
        for (int i = 0; i < keys.size(); i += 500) {
            List<String> del = new ArrayList<>(base);
            del.add("DEL");
            del.addAll(keys.subList(i, Math.min(keys.size(), i + 500)));
            redisCli(del);
        }
    }

    void report(List<String> lines) {
        report(lines.toArray(String[]::new));
    }

    /** Appends LINES to the report. */
    void report(String... lines) {
        try {
            Files.writeString(out(), String.join("\n", lines) + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new Fail("cannot write " + out() + ": " + e.getMessage());
        }
    }

    /** cat OUT, then where it is (the scripts' last lines). */
    void show(String trailer) {
        try {
            System.out.print(Files.readString(out()));
        } catch (IOException e) {
            // nothing written
        }
        Say.say(trailer);
    }

    String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            return "";
        }
    }

    /** Something to undo at the end (the scripts' trap cleanup), after what was registered later. */
    void onClose(Runnable cleanup) {
        cleanups.push(cleanup);
    }

    /** Stops what it started (in reverse), then runs the cleanups (kill, then clean, as the traps did), removes WORK. */
    @Override
    public void close() {
        for (int i = started.size() - 1; i >= 0; i--) {
            started.get(i).stop();
        }
        for (Runnable cleanup : cleanups) {
            try {
                cleanup.run();
            } catch (RuntimeException e) {
                Say.warn("bench " + name + " cleanup: " + e.getMessage());
            }
        }
        try (Stream<Path> all = Files.walk(work)) {
            all.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a scratch directory under TMPDIR: left to the system
        }
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Fail("interrupted", 130);
        }
    }
}
