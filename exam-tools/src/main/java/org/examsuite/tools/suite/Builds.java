package org.examsuite.tools.suite;

import java.util.Arrays;
import java.util.List;
import org.examsuite.tools.host.Workspace;

/** What the suite runs from: the native executables (--native, EXAM_NATIVE=1) or the JVM applications. */
public final class Builds {
    private final Workspace ws;
    private final Maven maven;
    private final NativeBuilds natives;

    public Builds(Workspace ws, Maven maven, NativeBuilds natives) {
        this.ws = ws;
        this.maven = maven;
        this.natives = natives;
    }

    public void flavour() {
        if (ws.flag("EXAM_NATIVE")) {
            natives.build(Arrays.asList(Service.values()), null, 0);
        } else {
            maven.services(Arrays.asList(Service.values()));
        }
    }

    public void build(List<Service> services, boolean nativeExecutables) {
        if (nativeExecutables) {
            natives.build(services, null, 0);
        } else {
            maven.services(services);
        }
    }
}
