package org.examsuite.demo.drill;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.examsuite.demo.drill.Topology.Replica;

/** nginx playing the Kubernetes Ingress and Services: started, re-rendered and reloaded as endpoints change, stopped. */
public final class Nginx {
    private final Host host;
    private final DrillPaths paths;
    private final NginxConfig config;
    private final Set<Replica> down = new HashSet<>();

    public Nginx(Host host, DrillPaths paths, NginxConfig config) {
        this.host = host;
        this.paths = paths;
        this.config = config;
    }

    private Path conf() {
        return paths.nginx().resolve("nginx.conf");
    }

    public synchronized void up() throws IOException {
        host.need("nginx", "nginx");
        Files.createDirectories(paths.nginx().resolve("tmp"));
        down.clear();
        write();
        Path testLog = paths.log("nginx-test.log");
        if (host.toLog(command("-t"), testLog) != 0) {
            System.err.print(Files.readString(testLog));
            throw new DrillFailure("nginx.conf does not load");
        }
        if (host.toLog(command("-g", "user root;"), paths.log("nginx-error.log")) != 0) {
            throw new DrillFailure("nginx did not start");
        }
        Drill.say("nginx: ingress on 127.0.0.1:" + Topology.INGRESS_PORT + ", Services on "
                + Topology.Service.SESSION.servicePort() + "-" + Topology.Service.GRADING.servicePort());
    }

    /** Takes a replica out of (IN false) or back into its upstream, as endpoints do for a terminating pod. */
    public synchronized void endpoint(Replica replica, boolean in) {
        if (in) {
            down.remove(replica);
        } else {
            down.add(replica);
        }
        try {
            write();
        } catch (IOException e) {
            throw new DrillFailure("cannot write " + conf() + ": " + e.getMessage());
        }
        host.toLog(command("-g", "user root;", "-s", "reload"), paths.log("nginx-error.log"));
    }

    /** SIGQUIT (graceful) to the master, if the pid file still names an nginx of this drill. */
    public void down() {
        long pid = Host.readPid(paths.nginx().resolve("nginx.pid"));
        String args = Host.commandLine(pid);
        if (args.contains("nginx") && args.contains(paths.nginx().toString())) {
            host.signal(pid, "QUIT");
        }
    }

    private void write() throws IOException {
        Path next = paths.nginx().resolve("nginx.conf.new");
        Files.writeString(next, config.render(down));
        Files.move(next, conf(), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    private List<String> command(String... args) {
        List<String> command = new java.util.ArrayList<>(List.of("nginx", "-p", paths.nginx().toString(), "-c",
                conf().toString()));
        command.addAll(List.of(args));
        return command;
    }
}
