package org.examsuite.tools.images;

import java.nio.file.Path;
import java.util.List;

/**
 * What ./exam images needs from the rest of the CLI: the services, their keys and flags, and
 * Maven. The integrator implements it; this package depends on nothing else that is new.
 */
public interface ImageSupport {
    /** session-service, answer-service, submission-service, grading-saga. */
    List<String> services();

    /** Every key variable of every service (an image runs with all of them), the keys made when missing. */
    java.util.Map<String, String> keyEnv();

    /** java_opts_for: the service's JVM flags (the chart's javaToolOptions, or EXAM_JAVA_OPTS). */
    String jvmOpts(String service);

    /** native_opts_for: the heap sizes and system properties a native executable takes. */
    String nativeOpts(String service);

    /** native_exe: SERVICE/target/native/SERVICE. */
    Path nativeExecutable(String service);
}
