package org.examsuite.tools.bench;

import java.nio.file.Path;
import java.util.List;

/**
 * What ./exam bench needs of the service launcher (the CLI implements it): the services, their
 * JVM and native flags and commands, and building native executables. Kept to this interface so
 * the bench package depends on no other part of the CLI.
 */
public interface BenchServices {
    /** session-service, answer-service, submission-service, grading-saga. */
    List<String> all();

    /** java_opts_for: the JVM flags ./exam up gives SERVICE. */
    String jvmOpts(String service);

    /** native_opts_for: the flags of SERVICE's native executable. */
    String nativeOpts(String service);

    /** NATIVE=1 service_command: "&lt;exe&gt; &lt;opts&gt; -Dexam.service=&lt;svc&gt;". */
    String nativeCommand(String service);

    /** native_exe: SERVICE's native executable (which may not exist yet). */
    Path nativeExecutable(String service);

    /** build_native: builds the native executables of SERVICES. */
    void buildNative(List<String> services);

    /** sources_newer_than: is any source of MODULE (or of what it builds on) newer than TARGET? */
    boolean sourcesNewer(Path target, String module);
}
