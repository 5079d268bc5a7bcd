package org.examsuite.tools.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.examsuite.tools.host.Fail;
import org.examsuite.tools.host.Say;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** The commands that drive the suite: demo, fuzz, drill, bench, images. */
final class RunCommands {
    private RunCommands() {
    }

    /** Options forwarded to a driver as "--name value", in the order given. */
    static final class Forward {
        private final List<String> args = new ArrayList<>();

        Forward put(String name, Object value) {
            if (value != null) {
                args.add(name);
                args.add(value.toString());
            }
            return this;
        }

        Forward flag(String name, boolean on) {
            if (on) {
                args.add(name);
            }
            return this;
        }

        List<String> args() {
            return args;
        }
    }

    @Command(name = "demo", mixinStandardHelpOptions = true, sortOptions = false,
            description = {"The main job: brings the suite up (as up does), runs a simulated exam through a fault-injecting proxy "
                + "and verifies that it lost and duplicated nothing; a summary table and an HTML report in docs/reports/. "
                + "Stops what it started unless --keep-running."})
    static final class Demo implements Callable<Integer> {
        @Option(names = "--candidates", paramLabel = "N", description = "simulated candidates (500)")
        Integer candidates;

        @Option(names = "--duration", paramLabel = "S", description = "the exam's duration in seconds, at least 60 (120)")
        Integer duration;

        @Option(names = "--network", paramLabel = "good|weak|hostile", description = "the network's faults (weak)")
        String network;

        @Option(names = "--seed", paramLabel = "N", description = "seeds the candidates and the faults (random)")
        Long seed;

        @Option(names = "--grace", paramLabel = "S", description = "grace after the deadline (5)")
        Integer grace;

        @Option(names = "--ramp", paramLabel = "S", description = "the candidates start spread over this many seconds")
        Integer ramp;

        @Option(names = "--wait", paramLabel = "S", description = "seconds to wait for the last papers, grading and the archive")
        Integer wait;

        @Option(names = "--proxy-port-base", paramLabel = "P", description = "the fault proxy on P+1..P+4 (9080; 0: free ports)")
        Integer proxyPortBase;

        @Option(names = "--request-timeout-ms", paramLabel = "MS", description = "the clients' request timeout")
        Integer requestTimeout;

        @Option(names = "--json", paramLabel = "FILE", description = "write the run's summary there (JSON)")
        Path json;

        @Option(names = "--keep-running", description = "leave the suite up")
        boolean keepRunning;

        @Option(names = "--native", description = "the services from their native executables (docs/native.md)")
        boolean nativeExecutables;

        @Override
        public Integer call() {
            Toolbox tb = Exam.toolbox();
            if (nativeExecutables) {
                tb.ws.put("EXAM_NATIVE", "1");
            }
            boolean wasRunning = tb.suite.allRunning();
            tb.suite.up(false, false, false);
            Say.say("");
            List<String> args = new Forward().put("--candidates", candidates).put("--duration", duration).put("--network", network)
                    .put("--seed", seed).put("--grace", grace).put("--ramp", ramp).put("--wait", wait)
                    .put("--proxy-port-base", proxyPortBase).put("--request-timeout-ms", requestTimeout).put("--json", json)
                    .flag("--keep-running", keepRunning).args();
            int rc = tb.drivers.demo(args);
            if (!keepRunning && !wasRunning) {
                Say.say("");
                Say.say("stopping the suite this demo started (--keep-running leaves it up)");
                tb.suite.down();
            }
            return rc;
        }
    }

    @Command(name = "fuzz", mixinStandardHelpOptions = true, sortOptions = false,
            description = "Hostile input against the suite (brought up if needed, stopped after if so): generated, malformed and "
                + "forged requests with oracles after every batch (docs/fuzzing.md).")
    static final class Fuzz implements Callable<Integer> {
        @Option(names = "--requests", paramLabel = "N", description = "requests in all")
        Integer requests;

        @Option(names = "--seed", paramLabel = "S", description = "replays a campaign")
        Long seed;

        @Option(names = "--batch", paramLabel = "N", description = "requests between two oracle checks")
        Integer batch;

        @Option(names = "--flows", paramLabel = "N", description = "concurrent candidate flows")
        Integer flows;

        @Option(names = "--json", paramLabel = "FILE", description = "write the findings there (JSON)")
        Path json;

        @Override
        public Integer call() {
            Toolbox tb = Exam.toolbox();
            boolean wasRunning = tb.suite.allRunning();
            tb.suite.up(false, false, false);
            Say.say("");
            int rc = tb.drivers.fuzz(new Forward().put("--requests", requests).put("--seed", seed).put("--batch", batch)
                    .put("--flows", flows).put("--json", json).args(), null);
            if (!wasRunning) {
                Say.say("");
                Say.say("stopping the suite this campaign started");
                tb.suite.down();
            }
            return rc;
        }
    }

    @Command(name = "drill", mixinStandardHelpOptions = true, sortOptions = false,
            description = "The demo's candidates on two replicas of every service behind nginx, a Redis Cluster and a private "
                + "PostgreSQL, while processes die (docs/drill.md). Logs: .exam/drill/logs; report: docs/reports/drill-*.html.")
    static final class Drill implements Callable<Integer> {
        @Option(names = "--candidates", paramLabel = "N", description = "simulated candidates (300)")
        Integer candidates;

        @Option(names = "--duration", paramLabel = "S", description = "the exam's duration in seconds (180)")
        Integer duration;

        @Option(names = "--network", paramLabel = "good|weak|hostile", description = "the demo's network faults (weak)")
        String network;

        @Option(names = "--seed", paramLabel = "N", description = "seeds the candidates and the fault schedule")
        Long seed;

        @Option(names = "--faults", paramLabel = "all|LIST", description = "comma-separated: kill,rollingRestart,redisMasterKill,"
                + "redisReplicaKill,postgresRestart,pause,partition (all)")
        String faults;

        @Option(names = "--redis", paramLabel = "cluster|standalone", description = "six nodes on 7301-7306, or one on 7301 (cluster)")
        String redis;

        @Option(names = "--json", paramLabel = "FILE", description = "write the run's summary there (JSON)")
        Path json;

        @Option(names = "--wait", paramLabel = "S", description = "seconds after deadline + grace to wait for papers and grading (180)")
        Integer wait;

        @Option(names = "--ramp", paramLabel = "S", description = "the candidates start spread over this many seconds (max(10, candidates / 5))")
        Integer ramp;

        @Option(names = "--spaced", description = "each fault once, one after the other, windows apart (the exam 60 s + 60 s per fault "
                + "unless --duration; on the native executables unless --jvm)")
        boolean spaced;

        @Option(names = "--recovery-target", paramLabel = "S", description = "fail when a fault's window is over S seconds or holds a "
                + "500/502 (10 with --spaced; 0: not checked)")
        Integer recoveryTarget;

        @Option(names = "--native", description = "the replicas from their native executables (docs/native.md; the default with --spaced)")
        boolean nativeExecutables;

        @Option(names = "--jvm", description = "the replicas on the JVM, --spaced too")
        boolean jvm;

        @Override
        public Integer call() {
            if (nativeExecutables && jvm) {
                throw Fail.usage("drill: --native or --jvm, not both");
            }
            Toolbox tb = Exam.toolbox();
            if (nativeExecutables || (spaced && !jvm)) {
                // a spaced run is judged per window against 10 s, which a JVM's start on 2 loaded cores alone exceeds
                // (docs/drill.md): it runs what the chart deploys, the native executables (built when missing)
                tb.ws.put("EXAM_NATIVE", "1");
            }
            return tb.drivers.drill(new Forward().put("--candidates", candidates).put("--duration", duration)
                    .put("--network", network).put("--seed", seed).put("--faults", faults).put("--redis", redis)
                    .put("--json", json == null ? null : json.toAbsolutePath()).put("--wait", wait).put("--ramp", ramp)
                    .flag("--spaced", spaced).put("--recovery-target", recoveryTarget).args());
        }
    }

    @Command(name = "bench", mixinStandardHelpOptions = true, sortOptions = false,
            description = {"The benchmarks behind docs/benchmarks.md (bench/NAME/README.md; org.examsuite.tools.bench): each starts its own services on bench ports; "
                + "this run's tables, with the machine they ran on, are appended to docs/benchmarks.md."})
    static final class Bench implements Callable<Integer> {
        @Option(names = "--native", description = "on the native executables (built when missing)")
        boolean nativeOnly;

        @Option(names = "--compare", description = "JVM and native interleaved, one table of both")
        boolean compare;

        @Option(names = "--rounds", paramLabel = "N", description = "rounds of --compare (2)")
        Integer rounds;

        @picocli.CommandLine.Parameters(paramLabel = "NAME", arity = "0..*",
                description = "autosave, deadline-storm, saga, heartbeat, live, start-surge, ready, exam-results (the first six)")
        List<String> names = new ArrayList<>();

        @Override
        public Integer call() {
            Toolbox tb = Exam.toolbox();
            return new org.examsuite.tools.bench.Bench(tb.ws, tb.procs, new LauncherBenchServices(tb))
                    .run(new org.examsuite.tools.bench.Bench.Options(names, nativeOnly, compare, rounds));
        }
    }

    @Command(name = "images", mixinStandardHelpOptions = true, sortOptions = false,
            description = {"The four services' and the exam page's OCI images, built without a container daemon (a jlink JRE base; "
                + "quarkus-container-image-jib; nginx for the page) and pushed to a registry (a loopback docker-registry is started "
                + "when none answers, data in .exam/registry); writes .exam/images/values.yaml (registry, tag, digests) for helm -f "
                + "and checks every manifest against the chart (docs/operations.md, \"Images\")."})
    static final class Images implements Callable<Integer> {
        @Option(names = "--registry", paramLabel = "HOST:PORT", description = "where to push (EXAM_IMAGE_REGISTRY, else 127.0.0.1:5000)")
        String registry;

        @Option(names = "--push", description = "accepted for compatibility: a daemon-less build always ends in a registry")
        boolean push;

        @Option(names = "--no-verify", description = "skip the check against the chart")
        boolean noVerify;

        @Override
        public Integer call() {
            Toolbox tb = Exam.toolbox();
            return tb.images().run(new org.examsuite.tools.images.Images.Options(registry, push, noVerify));
        }
    }
}
