package org.examsuite.tools.cli;

import java.nio.file.Path;
import java.util.List;
import org.examsuite.tools.bench.BenchServices;
import org.examsuite.tools.suite.Service;

/** What ./exam bench needs of the launcher, from the launcher. */
final class LauncherBenchServices implements BenchServices {
    private final Toolbox tb;

    LauncherBenchServices(Toolbox tb) {
        this.tb = tb;
    }

    @Override
    public List<String> all() {
        return Service.modules();
    }

    @Override
    public String jvmOpts(String service) {
        return tb.flags.javaOpts(Service.of(service));
    }

    @Override
    public String nativeOpts(String service) {
        return tb.flags.nativeOpts(Service.of(service));
    }

    @Override
    public String nativeCommand(String service) {
        return String.join(" ", tb.launcher.command(Service.of(service), true));
    }

    @Override
    public Path nativeExecutable(String service) {
        return tb.natives.executable(Service.of(service));
    }

    @Override
    public void buildNative(List<String> services) {
        tb.natives.build(services.stream().map(Service::of).toList(), null, 0);
    }

    @Override
    public boolean sourcesNewer(Path target, String module) {
        return tb.maven.sourcesNewer(target, module);
    }
}
