package org.examsuite.tools.suite;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.examsuite.tools.host.Fail;

/** The four services: their modules, ports under ./exam up, and the chart's keys for them. */
public enum Service {
    SESSION("session-service", 8081, "session"),
    ANSWER("answer-service", 8082, "answer"),
    SUBMISSION("submission-service", 8083, "submission"),
    GRADING("grading-saga", 8084, "grading");

    /** The libraries every service is built with: a change to one is a change to every service. */
    public static final List<String> LIBRARIES = List.of("suite-contracts", "suite-common");

    /** What MODULE is built from, as paths from the home: its and the libraries' SOURCES folder and POMs, the root POM. */
    public static List<String> buildInputs(String module, String sources) {
        List<String> roots = new ArrayList<>(List.of(module + "/" + sources, module + "/pom.xml", "pom.xml"));
        LIBRARIES.forEach(library -> roots.addAll(List.of(library + "/" + sources, library + "/pom.xml")));
        return roots;
    }

    private final String module;
    private final int port;
    private final String key;

    Service(String module, int port, String key) {
        this.module = module;
        this.port = port;
        this.key = key;
    }

    public String module() {
        return module;
    }

    public int port() {
        return port;
    }

    /** The chart's name for it (services.&lt;key&gt; in values.yaml). */
    public String key() {
        return key;
    }

    /** SESSION, ANSWER, ...: how environment variables per service are named (BENCH_COMMAND_ANSWER). */
    public String upper() {
        return key.toUpperCase(Locale.ROOT);
    }

    /** What every process of this service has on its command line (a jar or an executable under target/). */
    public String marker() {
        return module + "/target/";
    }

    public static List<String> modules() {
        return Arrays.stream(values()).map(Service::module).toList();
    }

    public static Service of(String module) {
        for (Service s : values()) {
            if (s.module.equals(module)) {
                return s;
            }
        }
        throw Fail.usage("unknown service: " + module + " (" + String.join(", ", modules()) + ")");
    }
}
