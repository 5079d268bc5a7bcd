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
    public java.util.Map<String, String> keyEnv() {
        java.util.Map<String, String> env = new java.util.LinkedHashMap<>(tb.launcher.sharedKeys());
        for (Service s : Service.values()) {
            env.putAll(tb.launcher.ownKeys(s));
        }
        return env;
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
}
