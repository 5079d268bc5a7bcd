package org.examsuite.tools.suite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.examsuite.tools.host.Procs;
import org.examsuite.tools.host.Workspace;
import org.junit.jupiter.api.Test;

/** The flags read from the chart's values, as the chart's own reader (k8s/chart/jvm-flags.sh, used by the benches) reads them. */
class JvmFlagsTest {
    static final Path HOME = Path.of("..").toAbsolutePath().normalize();

    private static Workspace ws(Map<String, String> extra) {
        Map<String, String> env = new HashMap<>(System.getenv());
        env.remove("EXAM_JAVA_OPTS");
        env.putAll(extra);
        return new Workspace(HOME, env);
    }

    private static String bash(String function, String service) {
        Workspace ws = ws(Map.of());
        return new Procs(ws).output(List.of("bash", "-c", ". k8s/chart/jvm-flags.sh && " + function + " " + service)).strip();
    }

    @Test
    void everyServicesFlagsAreTheChartReadersFlags() {
        Workspace ws = ws(Map.of());
        JvmFlags flags = new JvmFlags(ws, new Procs(ws));
        for (Service s : Service.values()) {
            assertEquals(bash("java_flags_for", s.module()), flags.chartFlags(s), s.module());
            assertEquals(bash("java_properties_for", s.module()), flags.properties(s), s.module());
        }
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
