package org.examsuite.tools.infra;

import java.io.IOException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.examsuite.tools.host.Fail;
import org.examsuite.tools.host.Resp;
import org.examsuite.tools.host.Say;
import org.examsuite.tools.host.Workspace;

/**
 * A Redis Cluster of the user's, named by EXAM_REDIS_URL (its seeds) together with
 * QUARKUS_REDIS_CLIENT_TYPE=cluster: checked, used as it is, never started or stopped.
 */
public final class ExternalCluster {
    private ExternalCluster() {
    }

    /**
     * check_external_cluster: the first seed of EXAM_REDIS_URL that answers must say
     * cluster_state:ok. EXAM_REDIS_WAIT_REPLICAS, when unset, becomes 1 if every master has a
     * replica in sync, else 0 (WAIT 1 with no replica would hold every autosave to its timeout).
     */
    public static void check(Workspace ws) {
        String urls = ws.env("EXAM_REDIS_URL");
        String checked = "";
        String nodes = "";
        for (String seed : urls.split(",")) {
            if (seed.contains("rediss://")) {
                continue; // TLS: this plain socket cannot speak it
            }
            RedisUrl url;
            try {
                url = RedisUrl.parse(seed);
            } catch (Fail notAnAddress) {
                continue; // nothing can answer there
            }
            String at = url.host() + ":" + url.port();
            try {
                String info = Resp.call(url.host(), url.port(), "CLUSTER", "INFO");
                String state = Resp.field(info, "cluster_state");
                if (!state.equals("ok")) {
                    throw new Fail("the Redis Cluster at " + at + " says cluster_state:" + state + " (not ok)");
                }
                checked = at;
                nodes = clusterNodes(url);
                break;
            } catch (Resp.ErrorReply refused) {
                String reply = refused.getMessage();
                if (reply.contains("cluster support disabled")) {
                    throw new Fail(at + " is a standalone Redis, not a Redis Cluster node ('" + reply
                            + "'): unset QUARKUS_REDIS_CLIENT_TYPE for standalone");
                }
                Say.warn(at + " answers '" + reply + "' to CLUSTER INFO: its state is not checked (TLS or credentials);"
                        + " the services will tell");
                checked = "-";
                break;
            } catch (IOException silent) {
                // nothing answers at this seed: the next one
            }
        }
        if (checked.isEmpty()) {
            if (!urls.contains("rediss://")) {
                throw new Fail("no seed of EXAM_REDIS_URL answers (" + urls + ")");
            }
            Say.warn("rediss:// seeds cannot be checked from here (TLS): trusting EXAM_REDIS_URL as it is");
        } else if (!checked.equals("-")) {
            Say.say("Redis Cluster (external) answers at " + checked + ": cluster_state:ok");
        }
        if (ws.env("EXAM_REDIS_WAIT_REPLICAS").isEmpty()) {
            if (!nodes.isEmpty() && replicasPerMaster(nodes) >= 1) {
                ws.put("EXAM_REDIS_WAIT_REPLICAS", "1");
            } else {
                ws.put("EXAM_REDIS_WAIT_REPLICAS", "0");
                Say.warn("not every master of the external cluster was seen with a replica in sync: "
                        + "EXAM_REDIS_WAIT_REPLICAS=0 (set it to 1 to make autosaves wait for a replica)");
            }
        }
    }

    private static String clusterNodes(RedisUrl url) {
        try {
            return Resp.call(url.host(), url.port(), "CLUSTER", "NODES");
        } catch (IOException e) {
            return "";
        }
    }

    /**
     * replicas_per_master: the smallest number of connected, non-failing replicas of any
     * non-failing master with slots, from CLUSTER NODES (lines "id addr flags master-id ping
     * pong epoch link [slots]"); 0 when there is no such master.
     */
    static int replicasPerMaster(String clusterNodes) {
        Set<String> masters = new HashSet<>();
        Map<String, Integer> replicas = new HashMap<>();
        for (String line : clusterNodes.split("\n")) {
            String[] f = line.strip().split("\\s+");
            if (f.length < 3 || f[2].contains("fail")) {
                continue;
            }
            if (f[2].contains("master") && f.length >= 9) {
                masters.add(f[0]);
            }
            if (f[2].contains("slave") && f.length >= 8 && f[7].equals("connected")) {
                replicas.merge(f[3], 1, Integer::sum);
            }
        }
        return masters.stream().mapToInt(id -> replicas.getOrDefault(id, 0)).min().orElse(0);
    }
}
