package org.examsuite.tools.suite;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.examsuite.tools.host.Fail;
import org.examsuite.tools.host.Procs;
import org.examsuite.tools.host.Say;
import org.examsuite.tools.host.Workspace;

/**
 * The services' native executables (docs/native.md): built one at a time (each takes both cores
 * and ~6 GB for minutes) and cached in ~/.m2/exam-native/bin by what they are built from, so
 * that another clone (CI) takes an unchanged one instead of building it again.
 */
public final class NativeBuilds {
    /** EXAM_NATIVE_BUILD's value for "take target/native as it is; a missing executable means the JVM". */
    public static final String AS_BUILT = "as-built";

    private final Workspace ws;
    private final Procs procs;
    private final Maven maven;

    public NativeBuilds(Workspace ws, Procs procs, Maven maven) {
        this.ws = ws;
        this.procs = procs;
        this.maven = maven;
    }

    public Path executable(Service service) {
        return ws.path(service.module() + "/target/native/" + service.module());
    }

    public boolean present(Service service) {
        return Files.isExecutable(executable(service));
    }

    private Path cacheDir() {
        return Path.of(ws.env("EXAM_NATIVE_CACHE", System.getProperty("user.home") + "/.m2/exam-native"));
    }

    /**
     * The GraalVM home builds use: GRAALVM_HOME, else the native-image on the PATH (GraalVM,
     * Mandrel), else the toolchain native-toolchain/toolchain.sh assembles and caches here.
     */
    public Path graalvmHome() {
        String given = ws.env("GRAALVM_HOME");
        if (!given.isEmpty() && Files.isExecutable(Path.of(given, "bin/native-image"))) {
            return Path.of(given);
        }
        Optional<Path> onPath = procs.which("native-image");
        if (onPath.isPresent()) {
            try {
                return onPath.get().toRealPath().getParent().getParent();
            } catch (IOException e) {
                throw new Fail("cannot resolve " + onPath.get() + ": " + e.getMessage());
            }
        }
        Procs.Result result = procs.capture(List.of(ws.path("native-toolchain/toolchain.sh").toString()));
        if (!result.ok()) {
            throw new Fail("no native-image toolchain: ./exam native toolchain says why");
        }
        return Path.of(result.lastLine());
    }

    /** What an executable is built from: its sources, the shared libraries', the POMs and the toolchain. */
    public String key(Service service, Path home) {
        try {
            List<Path> files = new ArrayList<>();
            for (String root : Service.buildInputs(service.module(), "src/main")) {
                try (Stream<Path> walk = Files.walk(ws.path(root))) {
                    walk.filter(Files::isRegularFile).forEach(files::add);
                }
            }
            // as sha256sum over the sorted relative names printed them: "<hash>  <name>\n"
            List<String> names = files.stream().map(f -> ws.home().relativize(f).toString()).sorted().toList();
            StringBuilder listing = new StringBuilder();
            for (String name : names) {
                listing.append(sha256(Files.readAllBytes(ws.path(name)))).append("  ").append(name).append('\n');
            }
            listing.append(home).append('\n');
            return sha256(listing.toString().getBytes(StandardCharsets.UTF_8)).substring(0, 16);
        } catch (IOException e) {
            throw new Fail("cannot read " + service.module() + "'s sources: " + e.getMessage());
        }
    }

    static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The executables of SERVICES: unchanged ones from the cache unless FORCED; a build starts only
     * while BUDGET seconds (0: none) still hold one as long as the longest so far, the services left
     * run on the JVM.
     */
    public void build(List<Service> services, Service forced, long budgetSeconds) {
        if ("never".equals(ws.env("EXAM_NATIVE_BUILD"))) {
            // a developer's shortcut while iterating on tests: target/native as it is
            for (Service s : services) {
                if (!present(s)) {
                    throw new Fail("EXAM_NATIVE_BUILD=never: " + executable(s) + " is missing");
                }
            }
            Say.warn("EXAM_NATIVE_BUILD=never: running target/native/* as built, whatever the sources say now");
            return;
        }
        if (AS_BUILT.equals(ws.env("EXAM_NATIVE_BUILD"))) {
            List<Service> missing = services.stream().filter(s -> !present(s)).toList();
            if (!missing.isEmpty()) {
                Say.say("no native executable of " + missing.stream().map(Service::module).toList() + ": on the JVM");
                maven.services(missing);
            }
            return;
        }
        long begin = System.nanoTime();
        long longest = 0;
        Path home = graalvmHome();
        Path bin = Workspace.mkdirs(cacheDir().resolve("bin"));
        for (Service s : services) {
            String key = key(s, home);
            Path cached = bin.resolve(s.module() + "-" + key);
            if (s != forced && Files.isExecutable(cached)) {
                install(cached, executable(s));
                Say.say(s.module() + ": native executable of these sources cached (" + key + ")");
                continue;
            }
            long elapsed = (System.nanoTime() - begin) / 1_000_000_000L;
            if (!anotherFits(elapsed, longest, budgetSeconds)) {
                delete(executable(s));
                Say.warn(s.module() + ": not built, " + elapsed + " s of the native build budget (" + budgetSeconds
                        + " s) are spent and a build took up to " + longest + " s: it runs on the JVM");
                continue;
            }
            Say.say("building " + s.module() + "'s native executable with " + home
                    + " (minutes; Maven's output: .exam/logs/build.log)");
            long started = System.nanoTime();
            maven.buildOrFail(List.of("package", "-DskipTests", "-pl", s.module(), "-am", "-Dquarkus.native.enabled=true",
                    "-Dquarkus.native.container-build=false", "-Dquarkus.native.graalvm-home=" + home,
                    "-Dquarkus.native.native-image-xmx=" + ws.env("EXAM_NATIVE_XMX", "6g")));
            Path runner = runner(s);
            install(runner, executable(s));
            Path partial = bin.resolve(cached.getFileName() + ".partial");
            copy(runner, partial);
            move(partial, cached);
            long took = (System.nanoTime() - started) / 1_000_000_000L;
            longest = Math.max(longest, took);
            Say.say(s.module() + ": native executable built in " + took + " s ("
                    + size(runner) / (1024 * 1024) + " MB)");
        }
    }

    /**
     * Whether another build may start: one as long as the longest so far still fits in the budget (0: none). A build
     * started before the budget ran out used to run to its end past it (CI's native stage: 1,372 s of a 900 s budget).
     */
    static boolean anotherFits(long elapsedSeconds, long longestSeconds, long budgetSeconds) {
        return budgetSeconds <= 0 || elapsedSeconds + longestSeconds <= budgetSeconds;
    }

    private Path runner(Service s) {
        try (Stream<Path> files = Files.list(ws.path(s.module() + "/target"))) {
            return files.filter(f -> f.getFileName().toString().endsWith("-runner")).findFirst()
                    .orElseThrow(() -> new Fail("the native build left no " + s.module() + "/target/*-runner"));
        } catch (IOException e) {
            throw new Fail(e.getMessage());
        }
    }

    private static void install(Path from, Path to) {
        Workspace.mkdirs(to.getParent());
        Path tmp = to.resolveSibling(to.getFileName() + ".tmp");
        copy(from, tmp);
        move(tmp, to);
    }

    private static void copy(Path from, Path to) {
        try {
            Files.copy(from, to, StandardCopyOption.REPLACE_EXISTING);
            Files.setPosixFilePermissions(to, PosixFilePermissions.fromString("rwxr-xr-x"));
        } catch (IOException e) {
            throw new Fail("cannot copy " + from + " to " + to + ": " + e.getMessage());
        }
    }

    private static void move(Path from, Path to) {
        try {
            Files.move(from, to, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new Fail("cannot move " + from + " to " + to + ": " + e.getMessage());
        }
    }

    private static void delete(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            throw new Fail("cannot delete " + file + ": " + e.getMessage());
        }
    }

    private static long size(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            return 0;
        }
    }
}
