package org.examsuite.k8s;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/** External tools the checks need (promtool, node/npm, kubectl): found on PATH or a clear failure. */
final class Tools {

    record Result(int exitCode, String output) {
    }

    private Tools() {
    }

    static Optional<Path> which(String tool) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path candidate = Path.of(dir, tool);
            if (Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    /** The tool, or an AssertionError that says what to install: never a silent skip. */
    static Path require(String tool, String howToInstall) {
        return which(tool).orElseThrow(() -> new AssertionError(
                "'" + tool + "' is not on PATH; the k8s checks need it. Install it: " + howToInstall));
    }

    static Result run(Path workDir, long timeoutSeconds, List<String> command) {
        try {
            Path log = Files.createTempFile("k8s-tool", ".log");
            Process process = new ProcessBuilder(command).directory(workDir.toFile())
                    .redirectErrorStream(true).redirectOutput(log.toFile()).start();
            if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError(String.join(" ", command) + " did not finish within " + timeoutSeconds + " s");
            }
            String output = Files.readString(log, StandardCharsets.UTF_8);
            Files.deleteIfExists(log);
            return new Result(process.exitValue(), output);
        } catch (IOException e) {
            throw new AssertionError("could not run " + command + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted: " + command, e);
        }
    }
}
