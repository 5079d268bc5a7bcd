package org.examsuite.tools.bench;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.examsuite.tools.host.Fail;

/** A process a bench started in the background (a service, a stub): its output in its log, stopped at the end. */
final class ServiceProcess {
    private final String name;
    private final Process process;
    private final Path log;

    private ServiceProcess(String name, Process process, Path log) {
        this.name = name;
        this.process = process;
        this.log = log;
    }

    /** COMMAND with exactly ENV, in DIR, stdin from /dev/null, stdout and stderr into LOG. */
    static ServiceProcess start(String name, List<String> command, Map<String, String> env, Path dir, Path log) {
        ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile()).redirectInput(new File("/dev/null"));
        pb.environment().clear();
        pb.environment().putAll(env);
        try {
            return new ServiceProcess(name, pb.start(), log);
        } catch (IOException e) {
            throw new Fail("cannot start " + name + " (" + command.get(0) + "): " + e.getMessage());
        }
    }

    String name() {
        return name;
    }

    long pid() {
        return process.pid();
    }

    Path log() {
        return log;
    }

    boolean alive() {
        return process.isAlive();
    }

    /** kill, then wait: SIGTERM lets a Quarkus service shut down as it would in production. */
    void stop() {
        process.destroy();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
