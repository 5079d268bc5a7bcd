package org.examsuite.tools.host;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;

/**
 * The pid files of what ./exam started (.exam/run/NAME.pid): exactly those processes are ever
 * stopped, and only while they still run the command they were started with (a reused pid is not).
 */
public final class PidFiles {
    private final Path runDir;

    public PidFiles(Workspace ws) {
        this.runDir = ws.runDir();
    }

    public Path file(String name) {
        return runDir.resolve(name + ".pid");
    }

    public void record(String name, long pid) {
        try {
            Files.writeString(file(name), pid + "\n");
        } catch (IOException e) {
            throw new Fail("cannot write " + file(name) + ": " + e.getMessage());
        }
    }

    public void forget(String name) {
        try {
            Files.deleteIfExists(file(name));
        } catch (IOException e) {
            // nothing to forget
        }
    }

    /** NAME's recorded pid, when that process runs and its command line contains MARKER. */
    public OptionalLong running(String name, String marker) {
        OptionalLong pid = recorded(name);
        return pid.isPresent() && commandLine(pid.getAsLong()).contains(marker) ? pid : OptionalLong.empty();
    }

    /**
     * Whether the process this run just started as NAME is still alive. Its command line is no test here: for a
     * moment after the start it is still the JDK's spawn helper's or empty (mid-exec), which read as "exited".
     */
    public boolean startedAndAlive(String name) {
        OptionalLong pid = recorded(name);
        return pid.isPresent() && alive(pid.getAsLong());
    }

    private OptionalLong recorded(String name) {
        Path file = file(name);
        if (!Files.isRegularFile(file)) {
            return OptionalLong.empty();
        }
        try {
            return OptionalLong.of(Long.parseLong(Files.readString(file).strip()));
        } catch (IOException | NumberFormatException e) {
            return OptionalLong.empty();
        }
    }

    /** PID's command line, its arguments joined by blanks ("" when it does not run). */
    public static String commandLine(long pid) {
        try {
            byte[] raw = Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline"));
            return new String(raw, StandardCharsets.UTF_8).replace('\0', ' ').strip();
        } catch (IOException e) {
            return ProcessHandle.of(pid).flatMap(h -> h.info().commandLine()).orElse("");
        }
    }

    public static boolean alive(long pid) {
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }

    /** SIGTERM to NAME if it is still the process that was started; its pid, to await. */
    public OptionalLong signal(String name, String marker) {
        OptionalLong pid = running(name, marker);
        if (pid.isEmpty()) {
            forget(name);
            return pid;
        }
        Say.err("stopping " + name + " (pid " + pid.getAsLong() + ")");
        ProcessHandle.of(pid.getAsLong()).ifPresent(ProcessHandle::destroy);
        return pid;
    }

    /** Waits up to GRACE seconds for PID to end, then kills it; forgets NAME's pid file. */
    public void awaitStopped(String name, OptionalLong pid, int graceSeconds) {
        if (pid.isPresent()) {
            ProcessHandle.of(pid.getAsLong()).ifPresent(handle -> {
                try {
                    handle.onExit().get(graceSeconds, TimeUnit.SECONDS);
                } catch (Exception e) {
                    Say.warn(name + " did not stop within " + graceSeconds + "s; killing it");
                    handle.destroyForcibly();
                }
            });
        }
        forget(name);
    }

    public void stop(String name, String marker, int graceSeconds) {
        awaitStopped(name, signal(name, marker), graceSeconds);
    }
}
