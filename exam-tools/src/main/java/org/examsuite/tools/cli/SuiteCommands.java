package org.examsuite.tools.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.examsuite.tools.host.Fail;
import org.examsuite.tools.infra.LocalCluster;
import org.examsuite.tools.suite.Service;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** The commands that run the suite and what it stands on: up, down, status, build, native, cluster, token, capacity. */
final class SuiteCommands {
    private SuiteCommands() {
    }

    @Command(name = "up", mixinStandardHelpOptions = true, sortOptions = false,
            description = {"Build what is missing, ensure PostgreSQL and Redis (embedded ones when none answers on loopback), "
                + "start the four services on 8081-8084 and the exam page on 8080, wait until ready."})
    static final class Up implements Callable<Integer> {
        @Option(names = "--redis-cluster", description = "On a Redis Cluster: ./exam cluster up on 7001-7006, the services in "
                + "cluster mode with EXAM_REDIS_WAIT_REPLICAS=1 (also EXAM_REDIS_CLUSTER=1). EXAM_REDIS_URL=<seeds> with "
                + "QUARKUS_REDIS_CLIENT_TYPE=cluster: an external cluster, used as is.")
        boolean redisCluster;

        @Option(names = "--native", description = "The services from their native executables (built when missing: docs/native.md).")
        boolean nativeExecutables;

        @Option(names = "--pg-ha", description = "PostgreSQL as a primary and a synchronous standby under pg_auto_failover (Debian's "
                + "packages, installed when missing), behind one read-write endpoint on 127.0.0.1:15432 that the services use "
                + "(docs/operations.md, \"PostgreSQL failover\"); ./exam down stops it, its data stays in .exam/pg-ha.")
        boolean pgHa;

        @Option(names = "--idp", description = "Staff sign in through a real OpenID Connect provider: Keycloak (Maven Central's "
                + "keycloak-quarkus-dist, on Java 21+) on 127.0.0.1:8180 with the realm exam-suite imported from exam-tools' "
                + "idp/exam-suite-realm.json; the services verify staff tokens by its discovery and JWKS, the console signs in "
                + "through it (docs/operations.md, \"Staff sign-in\"); ./exam down stops it, its data stays in .exam/idp.")
        boolean idp;

        @Override
        public Integer call() {
            Toolbox tb = Exam.toolbox();
            if (nativeExecutables) {
                tb.ws.put("EXAM_NATIVE", "1");
            }
            tb.suite.up(redisCluster, pgHa, idp);
            return 0;
        }
    }

    @Command(name = "down", mixinStandardHelpOptions = true,
            description = "Stop what up started (the Redis Cluster and the embedded PostgreSQL/Redis too, when up started them).")
    static final class Down implements Callable<Integer> {
        @Override
        public Integer call() {
            Exam.toolbox().suite.down();
            return 0;
        }
    }

    @Command(name = "status", mixinStandardHelpOptions = true, description = "What up started and whether it is ready.")
    static final class Status implements Callable<Integer> {
        @Override
        public Integer call() {
            Exam.toolbox().suite.status();
            return 0;
        }
    }

    @Command(name = "token", mixinStandardHelpOptions = true,
            description = {"Print a JWT for the local suite (the token is the last line of stdout).",
                "operator: 8 h, signed with the dev keys in .exam/keys, for the API and the proctor console; service NAME: 15 min, "
                    + "that service's own token (session-service, answer-service, submission-service, grading-saga), for calling "
                    + "/internal by hand as it would.",
                "admin, author, proctor, grader: a realm user's token from the identity provider of ./exam up --idp (5 min), "
                    + "as scripts and checks act as each staff role."})
    static final class Token implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "KIND", description = "operator, service, admin, author, proctor or grader")
        String kind;

        @Parameters(index = "1", arity = "0..1", paramLabel = "SUBJECT", description = "the token's subject (operator); the service's name (service)")
        String subject;

        @Option(names = "--org", paramLabel = "ORG", description = "a staff member of this organisation (the realm's example-org by default)")
        String org;

        @Option(names = "--exam", paramLabel = "EXAM_ID", description = "assign the staff member to this exam first")
        String exam;

        @Override
        public Integer call() {
            Toolbox tb = Exam.toolbox();
            if (staffRoles().contains(kind)) {
                if (subject != null) {
                    throw Fail.usage("a staff token is a realm user's: --org and --exam choose it, not a SUBJECT");
                }
                System.out.println(tb.keycloak.token(kind, org, exam));
                return 0;
            }
            if (org != null || exam != null) {
                throw Fail.usage("--org and --exam are for the staff roles' tokens (admin, author, proctor, grader)");
            }
            System.out.println(tb.drivers.token(kind, subject));
            return 0;
        }

        private static List<String> staffRoles() {
            return List.of("admin", "author", "proctor", "grader");
        }
    }

    @Command(name = "build", mixinStandardHelpOptions = true,
            description = "Build the services' JVM applications, or their native executables (<service>/target/native/<service>, "
                + "cached by their sources' hash in ~/.m2/exam-native).")
    static final class Build implements Callable<Integer> {
        @Option(names = "--native", description = "native executables (docs/native.md)")
        boolean nativeExecutables;

        @Parameters(paramLabel = "SERVICE", arity = "0..*", description = "session-service, answer-service, submission-service, grading-saga (all)")
        List<String> services = new ArrayList<>();

        @Override
        public Integer call() {
            List<Service> chosen = services.isEmpty() ? List.of(Service.values()) : services.stream().map(Service::of).toList();
            Exam.toolbox().builds.build(chosen, nativeExecutables);
            return 0;
        }
    }

    @Command(name = "native", mixinStandardHelpOptions = true, description = "The native toolchain (docs/native.md).",
            subcommands = {Native.Toolchain.class, Native.BuildNative.class, Native.Test.class, Native.Home.class})
    static final class Native implements Callable<Integer> {
        @picocli.CommandLine.Spec
        picocli.CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() {
            throw Fail.usage("a subcommand is needed: toolchain, build, test or home (./exam native --help)");
        }

        @Command(name = "toolchain", mixinStandardHelpOptions = true,
                description = "Assemble the GraalVM home native builds use where no GraalVM is installed (cached in ~/.m2/exam-native; prints its path).")
        static final class Toolchain implements Callable<Integer> {
            @Override
            public Integer call() {
                Toolbox tb = Exam.toolbox();
                return tb.procs.run(List.of(tb.ws.path("native-toolchain/toolchain.sh").toString()));
            }
        }

        @Command(name = "build", mixinStandardHelpOptions = true, description = "The native executables (as ./exam build --native).")
        static final class BuildNative implements Callable<Integer> {
            @Parameters(paramLabel = "SERVICE", arity = "0..*", description = "the services (all)")
            List<String> services = new ArrayList<>();

            @Override
            public Integer call() {
                List<Service> chosen = services.isEmpty() ? List.of(Service.values()) : services.stream().map(Service::of).toList();
                Exam.toolbox().builds.build(chosen, true);
                return 0;
            }
        }

        @Command(name = "test", mixinStandardHelpOptions = true, description = "The toolchain's own test (native-toolchain/test/run.sh).")
        static final class Test implements Callable<Integer> {
            @Override
            public Integer call() {
                Toolbox tb = Exam.toolbox();
                return tb.procs.run(List.of(tb.ws.path("native-toolchain/test/run.sh").toString()));
            }
        }

        @Command(name = "home", mixinStandardHelpOptions = true, description = "The GraalVM home a native build would use.")
        static final class Home implements Callable<Integer> {
            @Override
            public Integer call() {
                System.out.println(Exam.toolbox().natives.graalvmHome());
                return 0;
            }
        }
    }

    @Command(name = "cluster", mixinStandardHelpOptions = true,
            description = {"A Redis Cluster on loopback: three masters, a replica each (six redis-server nodes, AOF everysec, node timeout 3 s).",
                "up: reuses a healthy one, restarts its stopped nodes, else creates one; the last line is the seed list.",
                "down: stops the nodes of that cluster (its directory stays until the next up).",
                "status: one line per node, PORT PID ROLE(master|replica|down) MASTER_PORT, then cluster_state:... nodes_running:N/M replicas_in_sync:N/M DIR."})
    static final class Cluster implements Callable<Integer> {
        @Parameters(index = "0", arity = "0..1", paramLabel = "ACTION", defaultValue = "status", description = "up, down or status (status)")
        String action;

        @Option(names = "--ports", paramLabel = "FIRST-LAST", description = "the nodes' ports: FIRST-LAST or a comma-separated list (7001-7006, or the recorded ones)")
        String ports;

        @Option(names = "--dir", paramLabel = "DIR", description = "the cluster's directory, relative to the repository (.exam/redis-cluster)")
        String dir;

        @Override
        public Integer call() {
            Toolbox tb = Exam.toolbox();
            LocalCluster cluster = LocalCluster.of(tb.ws, tb.procs, ports, dir);
            switch (action) {
                case "up" -> System.out.println(cluster.up().seeds());
                case "down" -> cluster.down();
                case "status" -> {
                    return cluster.printStatus() ? 0 : 1;
                }
                default -> throw Fail.usage("no cluster action '" + action + "' (up, down or status)");
            }
            return 0;
        }
    }

    @Command(name = "capacity", mixinStandardHelpOptions = true, sortOptions = false,
            description = "Cores and replicas per service, Redis shards, PostgreSQL cores and commits/s for an exam day, from the "
                + "measured CPU per unit (bench/figures.properties), with the chart values that match (docs/operations.md, \"Capacity\").")
    static final class Capacity implements Callable<Integer> {
        @Option(names = "--candidates", required = true, paramLabel = "N", description = "candidates at once")
        long candidates;

        @Option(names = "--autosave-every", paramLabel = "S", defaultValue = "15", description = "seconds between a candidate's autosaves (${DEFAULT-VALUE})")
        String autosaveEvery;

        @Option(names = "--submit-window", paramLabel = "W", defaultValue = "60", description = "seconds in which everyone submits (${DEFAULT-VALUE})")
        String submitWindow;

        @Option(names = "--start-window", paramLabel = "T", defaultValue = "60", description = "seconds in which everyone starts (${DEFAULT-VALUE})")
        String startWindow;

        @Option(names = "--heartbeat-every", paramLabel = "H", defaultValue = "30", description = "seconds between heartbeats (${DEFAULT-VALUE})")
        String heartbeatEvery;

        @Option(names = "--grade-within", paramLabel = "G", defaultValue = "30m", description = "results due within (${DEFAULT-VALUE})")
        String gradeWithin;

        @Option(names = "--live", paramLabel = "on|off", defaultValue = "on", description = "the live channel (${DEFAULT-VALUE})")
        String live;

        @Option(names = "--headroom", defaultValue = "0.6", description = "the share of a core planned for use (${DEFAULT-VALUE})")
        double headroom;

        @Option(names = "--cores-per-replica", defaultValue = "2", description = "(${DEFAULT-VALUE})")
        double coresPerReplica;

        @Option(names = "--min-replicas", defaultValue = "2", description = "(${DEFAULT-VALUE})")
        int minReplicas;

        @Override
        public Integer call() throws Exception {
            Toolbox tb = Exam.toolbox();
            org.examsuite.tools.Capacity.Exam exam = new org.examsuite.tools.Capacity.Exam(candidates, seconds(autosaveEvery),
                    seconds(submitWindow), seconds(startWindow), seconds(heartbeatEvery), seconds(gradeWithin), !live.equals("off"));
            org.examsuite.tools.Capacity.Plan plan = new org.examsuite.tools.Capacity.Plan(headroom, coresPerReplica, minReplicas);
            if (candidates < 1 || headroom <= 0 || headroom > 1 || coresPerReplica <= 0) {
                throw Fail.usage("capacity: --candidates >= 1, 0 < --headroom <= 1, --cores-per-replica > 0");
            }
            org.examsuite.tools.Capacity capacity = org.examsuite.tools.Capacity.load(tb.ws.path("bench/figures.properties"));
            System.out.print(org.examsuite.tools.Capacity.report(exam, plan, capacity.size(exam, plan)));
            return 0;
        }

        /** "90", "90s", "5m": seconds, above 0. */
        static double seconds(String text) {
            String t = text.strip().toLowerCase(java.util.Locale.ROOT);
            double value;
            try {
                value = t.endsWith("m") ? Double.parseDouble(t.substring(0, t.length() - 1)) * 60
                        : Double.parseDouble(t.endsWith("s") ? t.substring(0, t.length() - 1) : t);
            } catch (NumberFormatException e) {
                throw Fail.usage("a duration (90, 90s, 5m) is needed, not " + text);
            }
            if (!(value > 0)) {
                throw Fail.usage("a duration above 0 is needed, not " + text);
            }
            return value;
        }
    }
}
