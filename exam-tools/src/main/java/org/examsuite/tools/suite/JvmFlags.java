package org.examsuite.tools.suite;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.examsuite.tools.host.Fail;
import org.examsuite.tools.host.Procs;
import org.examsuite.tools.host.Workspace;

/**
 * The services' JVM flags from their one source, the chart's values (defaults.javaToolOptions,
 * services.&lt;key&gt;.javaToolOptions, where each flag's reason is written), and the native
 * executables' share of them (heap sizes, system properties; defaults.native.youngGeneration).
 */
public final class JvmFlags {
    private final Workspace ws;
    private final Procs procs;
    private List<String> values;
    private Boolean trimSupported;

    public JvmFlags(Workspace ws, Procs procs) {
        this.ws = ws;
        this.procs = procs;
    }

    /** The chart's values, read when first needed (most commands never start a service). */
    private List<String> values() {
        if (values == null) {
            Path file = ws.path("k8s/chart/exam-suite/values.yaml");
            try {
                values = Files.readAllLines(file);
            } catch (IOException e) {
                throw new Fail("cannot read " + file + ": " + e.getMessage());
            }
        }
        return values;
    }

    /** java_flags_for: the service's javaToolOptions, else the defaults'. */
    public String chartFlags(Service service) {
        String section = "";
        String current = "";
        String defaults = "";
        String own = "";
        for (String line : values()) {
            if (!line.isEmpty() && Character.isLetter(line.charAt(0))) {
                section = line.split("\\s+")[0];
                current = "";
            }
            if (section.equals("services:") && line.matches("^  [A-Za-z]+:.*")) {
                current = line.strip().split(":")[0];
            }
            if (section.equals("defaults:") && line.startsWith("  javaToolOptions:")) {
                defaults = line;
            }
            if (section.equals("services:") && current.equals(service.key()) && line.startsWith("    javaToolOptions:")) {
                own = line;
            }
        }
        String flags = unquote(own.isEmpty() ? defaults : own);
        if (!trimSupported()) {
            flags = flags.replaceAll(" *-XX:TrimNativeHeapInterval=[0-9]*", "");
        }
        return flags.strip();
    }

    /** java_opts_for: EXAM_JAVA_OPTS, when set, replaces the tuning flags; the system properties stay. */
    public String javaOpts(Service service) {
        String override = ws.env("EXAM_JAVA_OPTS");
        if (!override.isBlank()) {
            return (override.strip() + " " + properties(service)).strip();
        }
        return chartFlags(service);
    }

    /** The system properties among the chart's flags (behaviour, not tuning). */
    public String properties(Service service) {
        return Arrays.stream(chartFlags(service).split("\\s+")).filter(f -> f.startsWith("-D"))
                .collect(Collectors.joining(" "));
    }

    /**
     * native_opts_for: heap sizes and system properties (metaspace, code cache and compilers mean
     * nothing without a JVM); the young generation sized for SubstrateVM by the chart.
     */
    public String nativeOpts(Service service) {
        String young = nativeYoungGeneration();
        return Arrays.stream(chartFlags(service).split("\\s+"))
                .filter(f -> f.startsWith("-Xmx") || f.startsWith("-Xmn") || f.startsWith("-D"))
                .map(f -> f.startsWith("-Xmn") && !young.isEmpty() ? "-Xmn" + young : f)
                .collect(Collectors.joining(" "));
    }

    String nativeYoungGeneration() {
        String section = "";
        boolean inNative = false;
        for (String line : values()) {
            if (!line.isEmpty() && Character.isLetter(line.charAt(0))) {
                section = line.split("\\s+")[0];
                inNative = false;
            }
            if (section.equals("defaults:") && line.startsWith("  native:")) {
                inNative = true;
            } else if (inNative && line.startsWith("    youngGeneration:")) {
                return line.strip().split("\\s+")[1];
            }
        }
        return "";
    }

    private static String unquote(String line) {
        String v = line.replaceFirst("^ *javaToolOptions: *\"?", "");
        return v.replaceFirst("\" *$", "");
    }

    /** The chart's images run a recent JDK; a local JDK before 17.0.9 refuses this flag. Asked once. */
    private boolean trimSupported() {
        if (trimSupported == null) {
            trimSupported = procs.capture(List.of("sh", "-c", "java -XX:TrimNativeHeapInterval=2000 -version >/dev/null 2>&1")).ok();
        }
        return trimSupported;
    }
}
