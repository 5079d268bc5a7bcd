package org.examsuite.demo.drill;

import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.examsuite.demo.drill.Topology.Replica;

/**
 * The partition: nftables rules on loopback match the replica's sockets by its group id (meta skgid) and mark their
 * connections (ct mark) so that both directions match. This kernel has no netem and no tc classifiers: the slow link
 * is an HTB class on lo that nftables steers the marked packets into (meta priority = the class id), where they queue
 * behind a narrow rate; with 30 % of them dropped besides, TCP retransmits on top.
 */
public final class Partition {
    static final String SLOW_RATE = "256kbit";
    /** The slow link's HTB class; everything else on lo goes through 1:10, unlimited. */
    static final String SLOW_CLASS = "1:20";
    static final String MARK = "0x4d52";

    private final Host host;
    private final ReplicaFaults replicaFaults;
    private final Disruptions disruptions;
    private final FaultRecorder recorder;
    private final boolean cluster;

    public Partition(Host host, ReplicaFaults replicaFaults, Disruptions disruptions, FaultRecorder recorder, boolean cluster) {
        this.host = host;
        this.replicaFaults = replicaFaults;
        this.disruptions = disruptions;
        this.recorder = recorder;
        this.cluster = cluster;
    }

    /** The ports a partitioned replica loses: PostgreSQL's and Redis's, as an nftables set. */
    String storePorts() {
        return "{ " + Topology.PG_PORT + ", " + (cluster ? Topology.REDIS_PORTS : Integer.toString(Topology.REDIS_STANDALONE_PORT)) + " }";
    }

    /** The table of the first 10 s: every packet of the replica's store connections dropped. */
    String cutOffRules(int gid) {
        return """
                table inet %s {
                  chain out {
                    type filter hook output priority 0; policy accept;
                    meta skgid %d tcp dport %s ct mark set %s
                    ct mark %s drop
                  }
                }
                """.formatted(Topology.NFT_TABLE, gid, storePorts(), MARK, MARK);
    }

    public void run(Random random) throws InterruptedException {
        Optional<Replica> pick = replicaFaults.pickWait(random);
        if (pick.isEmpty()) {
            recorder.failedNow("partition", "none", "no replica free for a minute");
            return;
        }
        Replica r = pick.get();
        int gid = r.gid();
        try {
            long t0 = System.currentTimeMillis();
            recorder.log("partition: " + r + " (gid " + gid + ") cut off from PostgreSQL and Redis for 10 s");
            if (!nft(List.of("-f", "-"), cutOffRules(gid))) {
                undo(host);
                recorder.record(t0, System.currentTimeMillis(), "partition", r.name(),
                        "FAILED: nftables did not take the rules (see .exam/drill/logs/faults.log)");
                return;
            }
            Thread.sleep(10_000);
            recorder.log("partition: " + r + " on a slow, lossy link (" + SLOW_RATE + ", 30 % of packets dropped both ways) for 15 s");
            String slow = "at " + SLOW_RATE;
            if (!slowLinkUp()) {
                slow = "FAILED: lo could not be shaped (tc htb), not slowed";
                slowLinkDown(host);
            }
            String table = Topology.NFT_TABLE;
            nft(List.of("flush", "chain", "inet", table, "out"), null);
            nft(List.of("add", "rule", "inet", table, "out", "meta", "skgid", Integer.toString(gid), "tcp", "dport",
                    storePorts(), "ct", "mark", "set", MARK), null);
            nft(List.of("add", "rule", "inet", table, "out", "ct", "mark", MARK, "numgen", "random", "mod", "100", "<",
                    "30", "drop"), null);
            nft(List.of("add", "rule", "inet", table, "out", "ct", "mark", MARK, "meta", "priority", "set", SLOW_CLASS), null);
            Thread.sleep(15_000);
            undo(host);
            recorder.record(t0, System.currentTimeMillis(), "partition", r.name(), "cut off from PostgreSQL and Redis 10 s, then 15 s "
                    + slow + " with 30 % packet loss (nftables + an HTB class on lo, skgid " + gid + "; no fixed delay: no netem)");
        } finally {
            disruptions.release(r.service());
        }
    }

    private boolean nft(List<String> args, String input) {
        List<String> command = new java.util.ArrayList<>(List.of("nft"));
        command.addAll(args);
        Host.Result result = host.capture(command, input);
        if (!result.ok()) {
            recorder.log("partition: nft " + String.join(" ", args) + " failed: " + result.out().strip());
        }
        return result.ok();
    }

    private boolean slowLinkUp() {
        return host.quietly(List.of("tc", "qdisc", "replace", "dev", "lo", "root", "handle", "1:", "htb", "default", "10", "r2q", "1000"))
                && host.quietly(List.of("tc", "class", "add", "dev", "lo", "parent", "1:", "classid", "1:10", "htb", "rate",
                        "100gbit", "quantum", "60000"))
                && host.quietly(List.of("tc", "class", "add", "dev", "lo", "parent", "1:", "classid", SLOW_CLASS, "htb", "rate",
                        SLOW_RATE, "ceil", SLOW_RATE, "quantum", "1600"));
    }

    private static void slowLinkDown(Host host) {
        host.quietly(List.of("tc", "qdisc", "del", "dev", "lo", "root"));
    }

    /** Deletes the drill's nftables table and the lo qdisc: the partition's end, and the drill's clean-up. */
    public static void undo(Host host) {
        host.quietly(List.of("nft", "delete", "table", "inet", Topology.NFT_TABLE));
        slowLinkDown(host);
    }
}
