package org.examsuite.tools.images;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.examsuite.tools.DevKeys;
import org.examsuite.tools.host.Fail;
import org.examsuite.tools.host.Procs;
import org.examsuite.tools.host.Workspace;

/**
 * A test-scoped ImageSupport: what ./exam's functions answer, read the way ./exam reads them
 * (k8s/chart/jvm-flags.sh for the flags, DevKeys for the keys), until the CLI provides its own.
 */
final class ShellImageSupport implements ImageSupport {
    private final Workspace ws;
    private final Procs procs;

    ShellImageSupport(Workspace ws, Procs procs) {
        this.ws = ws;
        this.procs = procs;
    }

    @Override
    public List<String> services() {
        return List.of("session-service", "answer-service", "submission-service", "grading-saga");
    }

    @Override
    public String keyLine(String name, String kind) {
        try {
            new DevKeys(ws.keysDir()).ensure();
            StringBuilder line = new StringBuilder();
            for (String l : Files.readAllLines(ws.keysDir().resolve(name + "." + kind + ".pem"))) {
                if (!l.contains("-----")) {
                    line.append(l);
                }
            }
            return line.toString();
        } catch (IOException e) {
            throw new Fail("keys: " + e.getMessage());
        }
    }

    @Override
    public String jvmOpts(String service) {
        return bash("if [ -n \"${EXAM_JAVA_OPTS:-}\" ]; then echo \"$EXAM_JAVA_OPTS $(java_properties_for \"$1\")\"; "
                + "else java_flags_for \"$1\"; fi", service);
    }

    @Override
    public String nativeOpts(String service) {
        return bash("young=\"$(awk '/^[A-Za-z]/ { s = $1 } s == \"defaults:\" && /^  native:/ { n = 1 } "
                + "n && /^    youngGeneration:/ { print $2; exit }' \"$JVM_FLAGS_VALUES\")\"; "
                + "java_flags_for \"$1\" | tr ' ' '\\n' | grep -E '^-(Xmx|Xmn|D)' | "
                + "sed \"${young:+s/^-Xmn.*/-Xmn$young/}\" | tr '\\n' ' ' | sed 's/ $//'", service);
    }

    private String bash(String script, String service) {
        return procs.output(List.of("bash", "-c", ". k8s/chart/jvm-flags.sh; " + script, "bash", service)).strip();
    }

    @Override
    public Path nativeExecutable(String service) {
        return ws.path(service + "/target/native/" + service);
    }

    @Override
    public int maven(List<String> args) {
        List<String> command = new ArrayList<>(List.of(ws.path("mvnw").toString(), "-B", "-ntp"));
        command.addAll(args);
        return procs.run(command);
    }

    @Override
    public void buildServices(List<String> services) {
        if (maven(List.of("package", "-DskipTests", "-pl", String.join(",", services), "-am")) != 0) {
            throw new Fail("the build failed");
        }
    }
}
