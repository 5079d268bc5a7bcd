package org.examsuite.tools.host;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/** Running the programs ./exam drives: in the foreground, captured, teed to a log, or detached. */
public final class Procs {
    /** What coreutils' timeout exits with when the limit struck (./exam test reads it so). */
    public static final int TIMED_OUT = 124;

    private final Workspace ws;

    public Procs(Workspace ws) {
        this.ws = ws;
    }

    public record Result(int exitCode, String out) {
        public boolean ok() {
            return exitCode == 0;
        }

        /** The last non-empty line of stdout (scripts print their result there). */
        public String lastLine() {
            String[] lines = out.strip().split("\n");
            return lines.length == 0 ? "" : lines[lines.length - 1].strip();
        }
    }

    private ProcessBuilder builder(List<String> command, Map<String, String> extraEnv) {
        ProcessBuilder pb = new ProcessBuilder(command).directory(ws.home().toFile());
        pb.environment().clear();
        pb.environment().putAll(ws.env());
        pb.environment().putAll(extraEnv);
        return pb;
    }

    /** Runs COMMAND with this terminal's stdin, stdout and stderr; its exit code. */
    public int run(List<String> command) {
        return run(command, Map.of(), null);
    }

    public int run(List<String> command, Map<String, String> extraEnv, Path dir) {
        ProcessBuilder pb = builder(command, extraEnv).inheritIO();
        if (dir != null) {
            pb.directory(dir.toFile());
        }
        return waitFor(start(pb), 0);
    }

    /** Runs COMMAND, its stdout and stderr both to this stdout and to LOG (as {@code | tee LOG}). */
    public int tee(List<String> command, Map<String, String> extraEnv, Path dir, Path log) {
        ProcessBuilder pb = builder(command, extraEnv).redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.INHERIT);
        if (dir != null) {
            pb.directory(dir.toFile());
        }
        Process process = start(pb);
        try (InputStream in = process.getInputStream(); OutputStream file = Files.newOutputStream(log)) {
            byte[] buffer = new byte[8192];
            for (int n; (n = in.read(buffer)) > 0;) {
                System.out.write(buffer, 0, n);
                System.out.flush();
                file.write(buffer, 0, n);
            }
        } catch (IOException e) {
            throw new Fail("reading " + command.get(0) + "'s output: " + e.getMessage());
        }
        return waitFor(process, 0);
    }

    /** Runs COMMAND with INPUT as its stdin, its stdout and stderr into LOG (which it replaces); its exit code. */
    public int feed(List<String> command, String input, Path log) {
        ProcessBuilder pb = builder(command, Map.of()).redirectErrorStream(true).redirectOutput(log.toFile());
        Process process = start(pb);
        try (OutputStream in = process.getOutputStream()) {
            in.write(input.getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            // it stopped reading: its exit code and log tell why
        }
        return waitFor(process, 0);
    }

    /** Runs COMMAND and returns its stdout; stderr goes to this stderr. */
    public Result capture(List<String> command) {
        return capture(command, Map.of());
    }

    public Result capture(List<String> command, Map<String, String> extraEnv) {
        Process process = start(builder(command, extraEnv).redirectError(ProcessBuilder.Redirect.INHERIT)
                .redirectInput(ProcessBuilder.Redirect.INHERIT));
        try (InputStream in = process.getInputStream()) {
            String out = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            return new Result(waitFor(process, 0), out);
        } catch (IOException e) {
            throw new Fail("reading " + command.get(0) + "'s output: " + e.getMessage());
        }
    }

    /** Like {@link #capture}, and a failure when it fails. */
    public String output(List<String> command) {
        Result result = capture(command);
        if (!result.ok()) {
            throw new Fail(String.join(" ", command) + " failed (exit " + result.exitCode() + ")");
        }
        return result.out();
    }

    /**
     * Starts COMMAND in the background, beyond this process's life (nohup; stdin from /dev/null,
     * stdout and stderr into LOG, which it replaces); its pid.
     */
    public long detach(List<String> command, Map<String, String> extraEnv, Path log) {
        List<String> nohup = new ArrayList<>();
        nohup.add("nohup");
        nohup.addAll(command);
        ProcessBuilder pb = builder(nohup, extraEnv).redirectErrorStream(true)
                .redirectOutput(log.toFile()).redirectInput(new File("/dev/null"));
        return start(pb).pid();
    }

    /**
     * Runs COMMAND with a time limit (seconds, 0: none): past it, COMMAND and everything it
     * started get SIGTERM, then SIGKILL 10 s later; the exit code is then {@link #TIMED_OUT}.
     */
    public int runLimited(List<String> command, Map<String, String> extraEnv, long seconds) {
        Process process = start(builder(command, extraEnv).inheritIO());
        return waitFor(process, seconds);
    }

    private static Process start(ProcessBuilder pb) {
        try {
            return pb.start();
        } catch (IOException e) {
            throw new Fail("cannot run " + pb.command().get(0) + ": " + e.getMessage());
        }
    }

    private static int waitFor(Process process, long seconds) {
        Thread reaper = new Thread(() -> killTree(process.toHandle()));
        Runtime.getRuntime().addShutdownHook(reaper); // ./exam stopped: its foreground children stop too
        try {
            if (seconds <= 0) {
                return process.waitFor();
            }
            if (process.waitFor(seconds, TimeUnit.SECONDS)) {
                return process.exitValue();
            }
            killTree(process.toHandle());
            return TIMED_OUT;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            killTree(process.toHandle());
            return 130;
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(reaper);
            } catch (IllegalStateException shuttingDown) {
                // the hook runs
            }
        }
    }

    /** SIGTERM to HANDLE and its descendants, SIGKILL to what still runs 10 s later. */
    public static void killTree(ProcessHandle handle) {
        if (!handle.isAlive()) {
            return;
        }
        List<ProcessHandle> all = new ArrayList<>(handle.descendants().toList());
        all.add(0, handle);
        all.forEach(ProcessHandle::destroy);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        for (ProcessHandle p : all) {
            try {
                p.onExit().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (Exception e) {
                p.destroyForcibly();
            }
        }
    }

    /** COMMAND's path on the PATH. */
    public Optional<Path> which(String command) {
        for (String dir : ws.env("PATH", "/usr/bin:/bin").split(":")) {
            Path candidate = Path.of(dir.isEmpty() ? "." : dir, command);
            if (Files.isExecutable(candidate) && !Files.isDirectory(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    public boolean has(String command) {
        return which(command).isPresent();
    }

    public static boolean isRoot() {
        return "root".equals(System.getProperty("user.name"));
    }

    /**
     * need_tool: COMMAND, installed from Debian package PACKAGE with apt-get when missing (as root);
     * false, naming it, when it cannot be had.
     */
    public boolean need(String command, String debianPackage) {
        if (has(command)) {
            return true;
        }
        if (has("apt-get") && isRoot()) {
            Say.err("installing " + debianPackage + " (for " + command + ")");
            capture(List.of("apt-get", "update", "-qq"));
            capture(List.of("env", "DEBIAN_FRONTEND=noninteractive", "apt-get", "install", "-y", "-qq",
                    "--no-install-recommends", debianPackage));
        }
        if (has(command)) {
            return true;
        }
        Say.warn("missing tool: '" + command + "' (Debian package '" + debianPackage + "'); install it and run again");
        return false;
    }
}
