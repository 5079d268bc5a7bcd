package org.examsuite.tools.suite;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.examsuite.tools.host.Fail;
import org.examsuite.tools.host.Say;
import org.examsuite.tools.host.Workspace;

/**
 * Builds with the repository's Maven wrapper, saying what they do instead of -q's silence (a
 * first build takes minutes): a line per module as Maven reaches it and a heartbeat when one
 * takes long. Maven's whole output: .exam/logs/build.log.
 */
public final class Maven {
    private static final Pattern MODULE = Pattern.compile("^\\[INFO\\] Building (Exam Suite(?: :: .*?)?) \\S+(?: +\\[(\\d+/\\d+)\\])?\\s*$");

    private final Workspace ws;

    public Maven(Workspace ws) {
        this.ws = ws;
    }

    /** ./mvnw -B -ntp ARGS with progress lines; its exit code (the errors printed when it fails). */
    public int build(List<String> args) {
        Path log = ws.logDir().resolve("build.log");
        List<String> command = new ArrayList<>(List.of(ws.path("mvnw").toString(), "-B", "-ntp"));
        command.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(command).directory(ws.home().toFile()).redirectErrorStream(true);
        pb.environment().clear();
        pb.environment().putAll(ws.env());
        long start = System.nanoTime();
        AtomicLong said = new AtomicLong(start);
        AtomicReference<String> module = new AtomicReference<>("(reading the project)");
        Thread heartbeat = new Thread(() -> {
            try {
                while (true) {
                    Thread.sleep(5000);
                    if (System.nanoTime() - said.get() >= 15_000_000_000L) {
                        Say.say("  ... still building " + module.get() + " (t+" + seconds(start) + "s)");
                        said.set(System.nanoTime());
                    }
                }
            } catch (InterruptedException e) {
                // the build ended
            }
        });
        heartbeat.setDaemon(true);
        int rc;
        List<String> errors = new ArrayList<>();
        try (Writer out = Files.newBufferedWriter(log)) {
            Process process = pb.start();
            heartbeat.start();
            try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = in.readLine()) != null;) {
                    out.write(line);
                    out.write('\n');
                    Matcher m = MODULE.matcher(line);
                    if (m.matches()) {
                        module.set(m.group(1).replaceFirst("^Exam Suite :: ", ""));
                        Say.say("  " + (m.group(2) == null ? "" : "[" + m.group(2) + "] ") + module.get() + " (t+" + seconds(start) + "s)");
                        said.set(System.nanoTime());
                    } else if (line.startsWith("[ERROR]") && errors.size() < 40) {
                        errors.add(line);
                    }
                }
            }
            rc = process.waitFor();
        } catch (IOException e) {
            throw new Fail("cannot run Maven: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            rc = 130;
        } finally {
            heartbeat.interrupt();
        }
        Say.say("  Maven finished after " + seconds(start) + "s");
        if (rc != 0) {
            errors.forEach(Say::err);
            Say.warn("the build failed (exit " + rc + "); Maven's whole output is in " + log);
        }
        return rc;
    }

    public void buildOrFail(List<String> args) {
        int rc = build(args);
        if (rc != 0) {
            throw new Fail("the build failed (exit " + rc + ")", rc);
        }
    }

    private static long seconds(long startNanos) {
        return (System.nanoTime() - startNanos) / 1_000_000_000L;
    }

    /** Is any source or POM that goes into TARGET (built from MODULE and the shared libraries) newer than it? */
    public boolean sourcesNewer(Path target, String module) {
        if (!Files.exists(target)) {
            return true;
        }
        try {
            FileTime built = Files.getLastModifiedTime(target);
            for (String root : Service.buildInputs(module, "src")) {
                Path path = ws.path(root);
                if (!Files.exists(path)) {
                    continue;
                }
                try (Stream<Path> files = Files.walk(path)) {
                    if (files.filter(Files::isRegularFile).anyMatch(f -> newer(f, built))) {
                        return true;
                    }
                }
            }
            return false;
        } catch (IOException e) {
            return true;
        }
    }

    private static boolean newer(Path file, FileTime than) {
        try {
            return Files.getLastModifiedTime(file).compareTo(than) > 0;
        } catch (IOException e) {
            return false; // vanished meanwhile
        }
    }

    static void touch(Path file) {
        try {
            Files.setLastModifiedTime(file, FileTime.from(Instant.now()));
        } catch (IOException e) {
            throw new Fail("cannot touch " + file + ": " + e.getMessage());
        }
    }

    /**
     * A plain-Java module (exam-tools, exam-demo), built when missing or older than its sources:
     * its classes and runtime class path.
     */
    public String plainModule(String module) {
        Path classpath = ws.path(module + "/target/classpath.txt");
        if (!Files.isDirectory(ws.path(module + "/target/classes")) || sourcesNewer(classpath, module)) {
            Say.say("building " + module);
            buildOrFail(List.of("package", "-DskipTests", "-pl", module, "-am"));
            touch(classpath); // Maven leaves an unchanged class path file (and its date) alone
        }
        try {
            return ws.path(module + "/target/classes") + ":" + Files.readString(classpath).strip();
        } catch (IOException e) {
            throw new Fail("cannot read " + classpath + ": " + e.getMessage());
        }
    }

    public static Path jar(Workspace ws, Service service) {
        return ws.path(service.module() + "/target/quarkus-app/quarkus-run.jar");
    }

    /** The services whose quarkus-run.jar is missing or older than their sources, built. */
    public void services(List<Service> services) {
        List<Service> stale = services.stream().filter(s -> sourcesNewer(jar(ws, s), s.module())).toList();
        if (stale.isEmpty()) {
            return;
        }
        String modules = String.join(",", stale.stream().map(Service::module).toList());
        Say.say("building " + String.join(" ", stale.stream().map(Service::module).toList())
                + " (a first build takes 2-4 minutes; later ones only rebuild what changed)");
        buildOrFail(List.of("package", "-DskipTests", "-pl", modules, "-am"));
        stale.forEach(s -> touch(jar(ws, s)));
    }
}
