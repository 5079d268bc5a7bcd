package org.examsuite.demo.drill;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The options of {@code ./exam drill}, as the bash drill took them (drill/run.sh before issue 37). Numbers are checked here; the network profile and
 * the duration's minimum are exam-demo's to judge (it gets them as given).
 */
public record DrillOptions(int candidates, int durationSeconds, String network, long seed, List<String> faults,
        String redisMode, Path jsonOut, int waitSeconds, int rampSeconds, boolean spaced, int recoveryTargetSeconds) {

    public static final String USAGE = """
            usage: ./exam drill [--candidates N] [--duration S] [--network good|weak|hostile] [--seed N]
                                [--faults all|LIST] [--redis cluster|standalone] [--json FILE] [--wait S]
                                [--spaced] [--recovery-target S]
              --candidates  simulated candidates (300)          --duration  the exam's duration in s (180; spaced 60 + 60 per fault)
              --network     the demo's network faults (weak)    --seed      seeds the candidates and the fault schedule
              --faults      comma-separated: kill,rollingRestart,redisMasterKill,redisReplicaKill,
                            postgresRestart,pause,partition (all); postgresFailover (PostgreSQL as a
                            primary and a synchronous standby under pg_auto_failover, behind one read-write endpoint)
              --redis       cluster (six nodes on 7301-7306) or standalone (one node on 7301)
              --json        write the run's summary there (JSON)
              --wait        seconds after deadline + grace to wait for papers and grading (180)
              --ramp        the candidates start spread over this many seconds (max(10, candidates / 5))
              --spaced      each fault once, one after the other, windows apart (all seven take ~5 min: the exam 480 s)
              --recovery-target  fail when a fault's window (every service served again) is over S seconds, or a
                            candidate got a 500 or 502 in it (10 with --spaced; 0: not checked)
            Logs: .exam/drill/logs; report: docs/reports/drill-*.html (docs/drill.md).
            """;

    /** A bad command line (exit 2); a null message means --help (exit 0). */
    public static final class UsageException extends RuntimeException {
        public UsageException(String message) {
            super(message);
        }
    }

    public boolean cluster() {
        return redisMode.equals("cluster");
    }

    public boolean wants(String kind) {
        return faults.contains(kind);
    }

    /** The faults as the bash drill printed them: comma-separated, {@code all} spelled out. */
    public String faultList() {
        return String.join(",", faults);
    }

    public static DrillOptions parse(String[] args, long defaultSeed) {
        int candidates = 300;
        Integer duration = null;
        String network = "weak";
        String seed = Long.toString(defaultSeed);
        String faults = "all";
        String redis = "cluster";
        String json = null;
        int wait = 180;
        Integer ramp = null;
        boolean spaced = false;
        Integer recoveryTarget = null;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            switch (arg) {
                case "--candidates" -> candidates = number(arg, value(args, ++i, arg));
                case "--duration" -> duration = number(arg, value(args, ++i, arg));
                case "--network" -> network = value(args, ++i, arg);
                case "--seed" -> seed = value(args, ++i, arg);
                case "--faults" -> faults = value(args, ++i, arg);
                case "--redis" -> redis = value(args, ++i, arg);
                case "--json" -> json = value(args, ++i, arg);
                case "--wait" -> wait = number(arg, value(args, ++i, arg));
                case "--ramp" -> ramp = number(arg, value(args, ++i, arg));
                case "--spaced" -> spaced = true;
                case "--recovery-target" -> recoveryTarget = number(arg, value(args, ++i, arg));
                case "-h", "--help" -> throw new UsageException(null);
                default -> throw new UsageException("unknown option " + arg);
            }
        }
        if (!seed.matches("[0-9]+")) {
            throw new UsageException("--seed needs a number");
        }
        // 300 session starts in the demo's 10 s on two loaded cores took 10-60 s each (beyond the clients' 5 s:
        // every retry a new start): candidates arrive over a minute, as in a real exam room.
        int rampSeconds = ramp != null ? ramp : Math.max(10, candidates / 5);
        if (!redis.equals("cluster") && !redis.equals("standalone")) {
            throw new UsageException("--redis cluster|standalone");
        }
        java.util.Set<String> kinds = new java.util.LinkedHashSet<>();
        for (String kind : faults.split(",")) {
            if (kind.isEmpty()) {
                continue; // "kill,,pause" as the shell's word splitting read it
            }
            if (kind.equals("all")) {
                kinds.addAll(InfraFault.ALL);
            } else if (!InfraFault.KINDS.contains(kind)) {
                throw new UsageException("unknown fault '" + kind + "' (all " + String.join(" ", InfraFault.KINDS) + ")");
            } else {
                kinds.add(kind);
            }
        }
        Path jsonOut = json == null || json.isEmpty() ? null : Path.of(json).toAbsolutePath().normalize();
        int target = recoveryTarget != null ? recoveryTarget : spaced ? 10 : 0;
        // spaced, each fault takes about a minute (its injection, its window, the 15 s gap): the exam lasts for all
        int durationSeconds = duration != null ? duration : spaced ? 60 + 60 * kinds.size() : 180;
        return new DrillOptions(candidates, durationSeconds, network, Long.parseLong(seed), List.copyOf(kinds), redis, jsonOut,
                wait, rampSeconds, spaced, target);
    }

    private static String value(String[] args, int i, String option) {
        if (i >= args.length) {
            throw new UsageException(option + " needs a value");
        }
        return args[i];
    }

    private static int number(String option, String text) {
        if (!text.matches("[0-9]+")) {
            throw new UsageException(option + " needs a number, got '" + text + "'");
        }
        return Integer.parseInt(text);
    }
}
