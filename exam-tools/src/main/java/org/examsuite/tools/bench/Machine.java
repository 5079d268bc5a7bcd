package org.examsuite.tools.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.examsuite.tools.host.Fail;
import org.examsuite.tools.host.Procs;
import org.examsuite.tools.host.Workspace;

/** The machine a run's figures come from, as the two "Machine:" lines of docs/benchmarks.md say it. */
final class Machine {
    private final Workspace ws;
    private final Procs procs;
    private final Path proc;

    Machine(Workspace ws, Procs procs, Path proc) {
        this.ws = ws;
        this.procs = procs;
        this.proc = proc;
    }

    List<String> lines() {
        return List.of(
                "Machine: " + Runtime.getRuntime().availableProcessors() + " cores (" + cpuModel() + "), " + memoryGib() + " GiB,",
                javaVersion() + ", load generator on the same machine, commit " + commit() + ".");
    }

    /** /proc/cpuinfo's first model name, blanks squeezed (as xargs did); "" on CPUs without one. */
    String cpuModel() {
        for (String line : read("cpuinfo").split("\n")) {
            if (line.contains("model name")) {
                int colon = line.indexOf(':');
                return colon < 0 ? "" : line.substring(colon + 1).trim().replaceAll("\\s+", " ");
            }
        }
        return "";
    }

    /** MemTotal in whole GiB, rounded down as free -g shows it. */
    String memoryGib() {
        return new ProcFs(proc).memoryGib();
    }

    /** The first line of `java -version` of the java on the PATH the services' scripts get. */
    String javaVersion() {
        String out = sh("java -version 2>&1");
        return out.lines().findFirst().orElse("");
    }

    String commit() {
        String out = sh("git -C \"$1\" rev-parse --short HEAD 2>/dev/null", ws.home().toString()).strip();
        return out.isEmpty() ? "unknown" : out;
    }

    // Through sh, as the bash ran them: the workspace's PATH finds the programs, stderr folds in or is dropped.
    private String sh(String script, String... args) {
        List<String> command = new ArrayList<>(List.of("sh", "-c", script, "sh"));
        command.addAll(List.of(args));
        try {
            return procs.capture(command).out();
        } catch (Fail e) {
            return "";
        }
    }

    private String read(String name) {
        try {
            return Files.readString(proc.resolve(name));
        } catch (IOException e) {
            return "";
        }
    }
}
