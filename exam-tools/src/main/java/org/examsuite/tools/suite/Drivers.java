package org.examsuite.tools.suite;

import java.io.IOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.examsuite.common.auth.Roles;
import org.examsuite.tools.DevKeys;
import org.examsuite.tools.DevTokens;
import org.examsuite.tools.host.Fail;
import org.examsuite.tools.host.Procs;
import org.examsuite.tools.host.Workspace;

/**
 * The programs that drive the running suite (exam-demo's demo, fuzzer and drill), each in a JVM
 * of its own, and the dev tokens they sign in with.
 */
public final class Drivers {
    private final Workspace ws;
    private final Procs procs;
    private final Maven maven;
    private final Keys keys;
    private final Launcher launcher;
    private final Builds builds;

    public Drivers(Workspace ws, Procs procs, Maven maven, Keys keys, Launcher launcher, Builds builds) {
        this.ws = ws;
        this.procs = procs;
        this.maven = maven;
        this.keys = keys;
        this.launcher = launcher;
        this.builds = builds;
    }

    /** An operator token (8 h) or a service's own token (15 min) signed with the local dev keys. */
    public String token(String kind, String subject) {
        keys.ensure();
        try {
            DevTokens tokens = new DevTokens(new DevKeys(keys.dir()), Clock.systemUTC());
            return switch (kind) {
                case "operator" -> tokens.operator(subject == null ? "operator@local" : subject,
                        ws.env("EXAM_OPERATOR_ISSUER", DevTokens.DEFAULT_OPERATOR_ISSUER));
                case "service" -> {
                    if (subject == null || !Roles.SERVICES.contains(subject)) {
                        throw Fail.usage("./exam token service <name>: one of " + String.join(", ", Roles.SERVICES));
                    }
                    yield tokens.service(subject);
                }
                default -> throw Fail.usage("no such token kind: " + kind + " (operator or service)");
            };
        } catch (IOException e) {
            throw new Fail("cannot sign a token with " + keys.dir() + ": " + e.getMessage());
        }
    }

    /** The simulated exam (org.examsuite.demo.Demo) against the running suite. */
    public int demo(List<String> args) {
        String token = token("operator", "demo-operator");
        String classpath = maven.plainModule("exam-demo");
        Workspace.mkdirs(ws.path("docs/reports"));
        // On JDK 21+ each candidate is a virtual thread (exam-demo's Demo.candidateThreads): 10,000 platform threads
        // cost the driver ~1 GiB of stacks and GC pauses that scan them all.
        String java = Jdks.atLeast(21).map(home -> home.resolve("bin/java").toString()).orElse("java");
        List<String> command = new ArrayList<>(List.of(java, "-Xmx1g", "-cp", classpath, "org.examsuite.demo.Demo",
                "--operator-token", token, "--report-dir", ws.path("docs/reports").toString()));
        command.addAll(args);
        return procs.run(command);
    }

    /** The hostile-input campaign (org.examsuite.demo.fuzz.Fuzz, docs/fuzzing.md) against the running suite. */
    public int fuzz(List<String> args, java.nio.file.Path log) {
        String token = token("operator", "fuzz-operator");
        String classpath = maven.plainModule("exam-demo");
        List<String> command = new ArrayList<>(List.of("java", "-Xmx512m", "-cp", classpath, "org.examsuite.demo.fuzz.Fuzz",
                "--keys", keys.dir().toString()));
        command.addAll(args);
        Map<String, String> env = Map.of("EXAM_FUZZ_OPERATOR_TOKEN", token);
        return log == null ? procs.run(command, env, null) : procs.tee(command, env, null, log);
    }

    /**
     * The drill (docs/drill.md): builds what is missing here; exam-demo's Drill starts, faults and
     * stops everything else, each replica with the command this launcher gives it.
     */
    public int drill(List<String> args) {
        keys.ensure();
        builds.flavour();
        String classpath = maven.plainModule("exam-demo");
        launcher.exportServiceEnv();
        Map<String, String> env = new LinkedHashMap<>();
        for (Service s : Service.values()) {
            env.put("DRILL_COMMAND_" + s.module().replace('-', '_'), String.join(" ", launcher.command(s)));
        }
        env.put("EXAM_HOME", ws.home().toString());
        env.put("DRILL_DEMO_CP", classpath);
        env.put("DRILL_OPERATOR_TOKEN", token("operator", "drill-operator"));
        // a small heap: the drill only starts, watches and signals processes (its exam driver gets its own)
        List<String> command = new ArrayList<>(List.of("java", "-Xmx256m", "-cp", classpath, "org.examsuite.demo.drill.Drill"));
        command.addAll(args);
        return procs.run(command, env, null);
    }
}
