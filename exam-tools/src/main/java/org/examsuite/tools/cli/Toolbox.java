package org.examsuite.tools.cli;

import org.examsuite.tools.host.PidFiles;
import org.examsuite.tools.host.Procs;
import org.examsuite.tools.host.Workspace;
import org.examsuite.tools.infra.Infra;
import org.examsuite.tools.infra.SuiteRedis;
import org.examsuite.tools.stages.Stages;
import org.examsuite.tools.suite.Builds;
import org.examsuite.tools.suite.Drivers;
import org.examsuite.tools.suite.HaPostgres;
import org.examsuite.tools.suite.Keycloak;
import org.examsuite.tools.suite.JvmFlags;
import org.examsuite.tools.suite.Keys;
import org.examsuite.tools.suite.Launcher;
import org.examsuite.tools.suite.Maven;
import org.examsuite.tools.suite.NativeBuilds;
import org.examsuite.tools.suite.Suite;

/** The composition root: every part of ./exam, wired once per run from the workspace. */
final class Toolbox {
    final Workspace ws;
    final Procs procs;
    final PidFiles pids;
    final Maven maven;
    final NativeBuilds natives;
    final Builds builds;
    final JvmFlags flags;
    final Keys keys;
    final Launcher launcher;
    final SuiteRedis redis;
    final Infra infra;
    final Suite suite;
    final Drivers drivers;
    final Keycloak keycloak;

    Toolbox(Workspace ws) {
        this.ws = ws;
        this.procs = new Procs(ws);
        this.pids = new PidFiles(ws);
        this.maven = new Maven(ws);
        this.natives = new NativeBuilds(ws, procs, maven);
        this.builds = new Builds(ws, maven, natives);
        this.flags = new JvmFlags(ws, procs);
        this.keys = new Keys(ws);
        this.launcher = new Launcher(ws, procs, pids, flags, natives, keys);
        this.redis = new SuiteRedis(ws, procs);
        this.infra = new Infra(ws, procs, pids, redis);
        this.keycloak = new Keycloak(ws, procs, pids, maven);
        this.suite = new Suite(ws, procs, pids, infra, redis, launcher, builds, new HaPostgres(ws, procs, pids, maven), keycloak);
        this.drivers = new Drivers(ws, procs, maven, keys, launcher, builds);
    }

    Stages stages() {
        return new Stages(ws, procs, pids, launcher, builds, natives, drivers, () -> images().stage(), keycloak);
    }

    org.examsuite.tools.images.Images images() {
        return new org.examsuite.tools.images.Images(ws, procs, new LauncherImageSupport(this));
    }
}
