package org.examsuite.tools.cli;

import java.nio.file.Path;
import java.util.List;
import org.examsuite.tools.images.ImageSupport;
import org.examsuite.tools.suite.Service;

/** What ./exam images needs of the launcher, from the launcher. */
final class LauncherImageSupport implements ImageSupport {
    private final Toolbox tb;

    LauncherImageSupport(Toolbox tb) {
        this.tb = tb;
    }

    @Override
    public List<String> services() {
        return Service.modules();
    }

    @Override
    public String keyLine(String name, String kind) {
        tb.keys.ensure();
        return tb.keys.line(name, kind);
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
    public Path nativeExecutable(String service) {
        return tb.natives.executable(Service.of(service));
    }

    @Override
    public int maven(List<String> args) {
        return tb.maven.build(args);
    }

    @Override
    public void buildServices(List<String> services) {
        tb.maven.services(services.stream().map(Service::of).toList());
    }
}
