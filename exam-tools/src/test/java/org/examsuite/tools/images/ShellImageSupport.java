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
import org.examsuite.tools.suite.JvmFlags;
import org.examsuite.tools.suite.Service;

/**
 * A test-scoped ImageSupport: what ./exam's functions answer, read the way ./exam reads them
 * (JvmFlags for the flags, DevKeys for the keys), until the CLI provides its own.
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
        return new JvmFlags(ws, procs).javaOpts(Service.of(service));
    }

    @Override
    public String nativeOpts(String service) {
        return new JvmFlags(ws, procs).nativeOpts(Service.of(service));
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
