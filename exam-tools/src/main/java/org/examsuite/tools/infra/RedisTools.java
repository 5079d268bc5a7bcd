package org.examsuite.tools.infra;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.examsuite.tools.host.Procs;
import org.examsuite.tools.host.Say;
import org.examsuite.tools.host.Workspace;

/**
 * need_redis_tools: this machine's redis-server, with redis-cli beside it, installed with
 * apt-get when missing (both at once: one apt-get update). Empty when neither is possible, or
 * when EXAM_CLUSTER_EMBEDDED=1 asks for the embedded fallback to test it: the cluster then
 * runs exam-tools' Redis 6.2 binary and is formed over RESP.
 */
final class RedisTools {
    private final Workspace ws;
    private final Procs procs;

    RedisTools(Workspace ws, Procs procs) {
        this.ws = ws;
        this.procs = procs;
    }

    boolean embeddedForced() {
        return ws.flag("EXAM_CLUSTER_EMBEDDED");
    }

    Optional<Path> systemServer() {
        if (embeddedForced()) {
            return Optional.empty();
        }
        if (!both() && procs.has("apt-get") && Procs.isRoot()) {
            Say.say("installing redis-server and redis-tools (for a Redis Cluster)");
            procs.capture(List.of("apt-get", "update", "-qq"));
            procs.capture(List.of("env", "DEBIAN_FRONTEND=noninteractive", "apt-get", "install", "-y", "-qq",
                    "--no-install-recommends", "redis-server", "redis-tools"));
        }
        return both() ? procs.which("redis-server") : Optional.empty();
    }

    private boolean both() {
        return procs.has("redis-server") && procs.has("redis-cli");
    }
}
