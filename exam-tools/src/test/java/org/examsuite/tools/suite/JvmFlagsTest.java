package org.examsuite.tools.suite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.examsuite.tools.host.Procs;
import org.examsuite.tools.host.Workspace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The services' flags read from the chart's values (their one source), for the JVM and for the native executables. */
class JvmFlagsTest {
    static final Path HOME = Path.of("..").toAbsolutePath().normalize();

    private static Workspace ws(Map<String, String> extra) {
        Map<String, String> env = new HashMap<>(System.getenv());
        env.remove("EXAM_JAVA_OPTS");
        env.putAll(extra);
        return new Workspace(HOME, env);
    }

    /** A chart's values in a throw-away workspace: defaults, one service's own flags, sections around them. */
    private static final String VALUES = """
            image:
              javaToolOptions: "-Xnot-this-one"
            defaults:
              replicas: 1
              javaToolOptions: "-XX:+UseSerialGC -Xms112m -Xmx112m -Xmn56m -Dvertx.disableURIValidation=true"
              native:
                youngGeneration: 16m
            services:
              session:
                port: 8081
              answer:
                javaToolOptions: "-XX:+UseSerialGC -Xmx96m -Xmn48m -XX:SurvivorRatio=2 -Dvertx.disableURIValidation=true -Da=b"
              submission:
                replicas: 2
            database:
              javaToolOptions: "-Xnor-this"
            """;

    @Test
    void aServiceHasItsOwnFlagsElseTheDefaultsAndTheirPropertiesAndNativeShare(@TempDir Path home) throws IOException {
        Files.createDirectories(home.resolve("k8s/chart/exam-suite"));
        Files.writeString(home.resolve("k8s/chart/exam-suite/values.yaml"), VALUES);
        Map<String, String> env = new HashMap<>(System.getenv());
        env.remove("EXAM_JAVA_OPTS");
        Workspace ws = new Workspace(home, env);
        JvmFlags flags = new JvmFlags(ws, new Procs(ws));
        assertEquals("-XX:+UseSerialGC -Xmx96m -Xmn48m -XX:SurvivorRatio=2 -Dvertx.disableURIValidation=true -Da=b", flags.chartFlags(Service.ANSWER));
        assertEquals("-Dvertx.disableURIValidation=true -Da=b", flags.properties(Service.ANSWER));
        for (Service s : List.of(Service.SESSION, Service.SUBMISSION, Service.GRADING)) {
            assertEquals("-XX:+UseSerialGC -Xms112m -Xmx112m -Xmn56m -Dvertx.disableURIValidation=true", flags.chartFlags(s), s.module());
        }
        assertEquals("-Xmx96m -Xmn16m -Dvertx.disableURIValidation=true -Da=b", flags.nativeOpts(Service.ANSWER));
    }

    @Test
    void examJavaOptsReplacesTheTuningButKeepsTheProperties() {
        Workspace ws = ws(Map.of("EXAM_JAVA_OPTS", "-Xmx1g"));
        JvmFlags flags = new JvmFlags(ws, new Procs(ws));
        assertEquals("-Xmx1g -Dvertx.disableURIValidation=true", flags.javaOpts(Service.ANSWER));
    }

    @Test
    void nativeExecutablesTakeHeapSizesPropertiesAndTheChartsYoungGeneration() {
        Workspace ws = ws(Map.of());
        JvmFlags flags = new JvmFlags(ws, new Procs(ws));
        String opts = flags.nativeOpts(Service.SUBMISSION);
        assertEquals("-Xmx128m -Xmn16m -Dvertx.disableURIValidation=true", opts);
        assertTrue(flags.nativeOpts(Service.SESSION).contains("-Xmn16m"));
    }
}
