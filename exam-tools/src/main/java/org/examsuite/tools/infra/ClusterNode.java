package org.examsuite.tools.infra;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalLong;
import org.examsuite.tools.host.PidFiles;
import org.examsuite.tools.host.Resp;

/**
 * One node of a loopback Redis Cluster: DIR/PORT holds its nodes.conf, AOF, log and pid file.
 * It is recognised by its pid file, its command line and its working directory together, so
 * that only the nodes of that directory are ever stopped.
 */
record ClusterNode(Path clusterDir, int port) {
    static final String HOST = "127.0.0.1";

    Path dir() {
        return clusterDir.resolve(Integer.toString(port));
    }

    Path pidFile() {
        return dir().resolve("redis.pid");
    }

    Path log() {
        return dir().resolve("redis.log");
    }

    /** cluster_node_pid: the node's pid while it runs (pid file, command line and cwd all agree). */
    OptionalLong pid() {
        String first;
        try {
            if (!Files.isRegularFile(pidFile())) {
                return OptionalLong.empty();
            }
            first = Files.readString(pidFile()).lines().findFirst().orElse("");
        } catch (IOException e) {
            return OptionalLong.empty();
        }
        if (!first.matches("[0-9]{1,18}")) {
            return OptionalLong.empty();
        }
        long pid = Long.parseLong(first);
        String args = PidFiles.commandLine(pid);
        int server = args.indexOf("redis-server");
        if (server < 0 || args.indexOf(":" + port, server + "redis-server".length()) < 0) {
            return OptionalLong.empty();
        }
        return cwdIsOurs(pid) ? OptionalLong.of(pid) : OptionalLong.empty();
    }

    /** The node was started with --dir DIR/PORT; a process whose cwd we may not read is trusted. */
    private boolean cwdIsOurs(long pid) {
        Path proc = Path.of("/proc", Long.toString(pid));
        if (!Files.isDirectory(proc)) {
            return true;
        }
        Path cwd;
        try {
            cwd = Files.readSymbolicLink(proc.resolve("cwd"));
        } catch (IOException | UnsupportedOperationException e) {
            return true;
        }
        if (cwd.equals(dir())) {
            return true;
        }
        try {
            // /proc shows the real path: a DIR reached through a symlink is still ours
            return cwd.equals(dir().toRealPath());
        } catch (IOException e) {
            return false;
        }
    }

    boolean running() {
        return pid().isPresent();
    }

    /** redis_q: the node's reply, empty when it refuses (an error reply) or nothing answers. */
    Optional<String> query(String... args) {
        try {
            return Optional.of(Resp.call(HOST, port, args));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** Is PID still a live process? A zombie (its parent never reaps it) counts as stopped. */
    static boolean alive(long pid) {
        if (!PidFiles.alive(pid)) {
            return false;
        }
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            int end = stat.lastIndexOf(')');
            return end < 0 || end + 2 >= stat.length() || stat.charAt(end + 2) != 'Z';
        } catch (IOException e) {
            return PidFiles.alive(pid);
        }
    }
}
