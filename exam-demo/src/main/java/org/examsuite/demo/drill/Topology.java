package org.examsuite.demo.drill;

import java.util.List;
import java.util.stream.Stream;

/**
 * The drill's fixed layout (docs/drill.md): four services with two replicas each, and the ports, away from
 * 8080–8084, 9080–9084, 6379, 7001–7006, 7101–7106 and the benchmarks' 18082, 18091, 18181–18183, 18284, 18291.
 */
public final class Topology {
    public static final int INGRESS_PORT = 28080;
    public static final int PG_PORT = 15432;
    public static final String REDIS_PORTS = "7301-7306";
    public static final int REDIS_STANDALONE_PORT = 7301;
    /** The only nftables table the drill creates (partition); deleted at the end. */
    public static final String NFT_TABLE = "exam_drill";

    private Topology() {
    }

    /** A service of the suite: its short name (nginx upstream, chart key), its module, its index in the ports. */
    public enum Service {
        SESSION("session", "session-service"),
        ANSWER("answer", "answer-service"),
        SUBMISSION("submission", "submission-service"),
        GRADING("grading", "grading-saga");

        public final String id;
        public final String module;

        Service(String id, String module) {
            this.id = id;
            this.module = module;
        }

        /** Its Service (nginx, every path) on 2818x: what the other services call. */
        public int servicePort() {
            return 28181 + ordinal();
        }

        public Replica a() {
            return new Replica(this, 'a');
        }

        public Replica b() {
            return new Replica(this, 'b');
        }
    }

    /** Replica {@code <svc>-a} (port 2808x) or {@code <svc>-b} (2809x). */
    public record Replica(Service service, char letter) {
        public String name() {
            return service.id + "-" + letter;
        }

        public int port() {
            return (letter == 'a' ? 28081 : 28091) + service.ordinal();
        }

        /**
         * A group id of its own, so that nftables can tell its sockets apart (meta skgid) for the partition; the
         * user stays root (it reads the jars and .exam/keys).
         */
        public int gid() {
            return 4300 + 2 * service.ordinal() + (letter == 'a' ? 0 : 1);
        }

        public Replica sibling() {
            return new Replica(service, letter == 'a' ? 'b' : 'a');
        }

        @Override
        public String toString() {
            return name();
        }
    }

    /** session-a, session-b, answer-a, ... grading-b: the order pick draws from. */
    public static final List<Replica> REPLICAS = Stream.of(Service.values()).flatMap(s -> Stream.of(s.a(), s.b())).toList();

    /** The ports that must be free before the drill starts (HTTP and PostgreSQL; Redis is ./exam cluster's). */
    public static List<Integer> portsToCheck() {
        List<Integer> ports = new java.util.ArrayList<>();
        ports.add(INGRESS_PORT);
        REPLICAS.stream().filter(r -> r.letter() == 'a').forEach(r -> ports.add(r.port()));
        REPLICAS.stream().filter(r -> r.letter() == 'b').forEach(r -> ports.add(r.port()));
        Stream.of(Service.values()).forEach(s -> ports.add(s.servicePort()));
        ports.add(PG_PORT);
        return ports;
    }
}
