package org.examsuite.tools.images;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.examsuite.tools.host.Fail;
import org.examsuite.tools.host.Procs;
import org.examsuite.tools.host.Workspace;

/**
 * The redirections the images need that host.Procs has no method for: a pipeline into a file
 * (tar | gzip > OUT), a command's output into a log (> LOG 2>&1), a stream into a command's
 * stdin (curl | tar -x). Children see the workspace's environment, as Procs' do.
 */
final class Children {
    private final Workspace ws;

    Children(Workspace ws) {
        this.ws = ws;
    }

    private ProcessBuilder builder(List<String> command) {
        ProcessBuilder pb = new ProcessBuilder(command).directory(ws.home().toFile());
        pb.environment().clear();
        pb.environment().putAll(ws.env());
        return pb;
    }

    /** FIRST | SECOND > OUT, stderr to this stderr; the first failing exit code (pipefail), else 0. */
    int pipeToFile(List<String> first, List<String> second, Path out) {
        List<ProcessBuilder> builders = List.of(
                builder(first).redirectError(ProcessBuilder.Redirect.INHERIT).redirectInput(new File("/dev/null")),
                builder(second).redirectError(ProcessBuilder.Redirect.INHERIT).redirectOutput(out.toFile()));
        try {
            List<Process> processes = ProcessBuilder.startPipeline(builders);
            int rc = 0;
            for (Process p : processes) {
                int code = p.waitFor();
                if (rc == 0 && code != 0) {
                    rc = code;
                }
            }
            return rc;
        } catch (IOException e) {
            throw new Fail("cannot run " + first.get(0) + " | " + second.get(0) + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Fail("interrupted");
        }
    }

    /** COMMAND > LOG 2>&1 (LOG replaced); its exit code. */
    int toLog(List<String> command, Path log) {
        ProcessBuilder pb = builder(command).redirectErrorStream(true).redirectOutput(log.toFile())
                .redirectInput(ProcessBuilder.Redirect.INHERIT);
        return waitFor(start(pb));
    }

    /** COMMAND > /dev/null, stderr to this stderr; its exit code. */
    int quiet(List<String> command) {
        ProcessBuilder pb = builder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.INHERIT).redirectInput(ProcessBuilder.Redirect.INHERIT);
        return waitFor(start(pb));
    }

    /** COMMAND's stdout, its stderr and exit code ignored (as {@code $(COMMAND 2>/dev/null)}). */
    String output(List<String> command) {
        return read(builder(command).redirectError(ProcessBuilder.Redirect.DISCARD));
    }

    /** COMMAND's stdout and stderr together, its exit code ignored (as {@code $(COMMAND 2>&1)}). */
    String merged(List<String> command) {
        return read(builder(command).redirectErrorStream(true));
    }

    private String read(ProcessBuilder pb) {
        pb.redirectInput(new File("/dev/null"));
        List<String> command = pb.command();
        Process process = start(pb);
        try (InputStream in = process.getInputStream()) {
            String out = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            waitFor(process);
            return out;
        } catch (IOException e) {
            throw new Fail("reading " + command.get(0) + "'s output: " + e.getMessage());
        }
    }

    /** IN | COMMAND, COMMAND's stdout and stderr to this process's; its exit code. */
    int feed(InputStream in, List<String> command) {
        ProcessBuilder pb = builder(command).redirectOutput(ProcessBuilder.Redirect.INHERIT)
                .redirectError(ProcessBuilder.Redirect.INHERIT);
        Process process = start(pb);
        try (OutputStream stdin = process.getOutputStream()) {
            in.transferTo(stdin);
        } catch (IOException e) {
            // the command ended early: its exit code tells
        }
        return waitFor(process);
    }

    private static Process start(ProcessBuilder pb) {
        try {
            return pb.start();
        } catch (IOException e) {
            throw new Fail("cannot run " + pb.command().get(0) + ": " + e.getMessage());
        }
    }

    private static int waitFor(Process process) {
        try {
            return process.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            Procs.killTree(process.toHandle());
            return 130;
        }
    }

    /** log_tail: the last 40 lines of LOG on stderr, framed. */
    static void logTail(Path log) {
        if (!Files.isRegularFile(log)) {
            return;
        }
        try {
            List<String> lines = Files.readAllLines(log, java.nio.charset.StandardCharsets.ISO_8859_1);
            System.err.println("--- last lines of " + log + " ---");
            for (String line : lines.subList(Math.max(0, lines.size() - 40), lines.size())) {
                System.err.println(line);
            }
            System.err.println("---");
            System.err.flush();
        } catch (IOException e) {
            // nothing to show
        }
    }

    static List<String> concat(List<String> a, List<String> b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }
}
