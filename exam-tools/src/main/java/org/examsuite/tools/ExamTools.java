package org.examsuite.tools;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Entry point of the Java side of {@code ./exam}. Commands:
 * <pre>
 *   keys --dir DIR                                   generate missing dev key pairs
 *   token operator|service --keys DIR [--issuer I] [SUBJECT]   print a token (last line)
 *   databases --host H --port P --user U [--password W] NAME...  create missing databases
 *   infra [--pg-host H --pg-port P --pg-data DIR --pg-bin DIR] [--redis-host H --redis-port P --redis-dir DIR]
 *                                                    embedded PostgreSQL/Redis until SIGTERM
 *   redis-binary --dir DIR                           unpack embedded-redis' redis-server 6.2; print its path
 *   redis-cluster create --host H --ports P1,P2,...  form a cluster of fresh nodes (first half masters,
 *                                                    a replica each) over RESP, as redis-cli --cluster create
 *   capacity --figures F --candidates N [--autosave-every S] [--submit-window W] [--start-window T]
 *            [--heartbeat-every H] [--grade-within G] [--live on|off] [--headroom 0.6] [--cores-per-replica 2] [--min-replicas 2]
 *                                                    cores, replicas, Redis shards, PostgreSQL for an exam day
 * </pre>
 * Exit codes: 0 ok, 1 failure, 2 usage.
 */
public final class ExamTools {
    private ExamTools() {
    }

    public static void main(String[] args) {
        try {
            System.exit(run(args));
        } catch (UsageException e) {
            System.err.println("exam-tools: " + e.getMessage());
            System.exit(2);
        } catch (Exception e) {
            System.err.println("exam-tools: " + e);
            System.exit(1);
        }
    }

    static int run(String[] args) throws Exception {
        if (args.length == 0) {
            throw new UsageException("a command is needed: keys, token, databases, infra, redis-binary, redis-cluster, capacity");
        }
        Options options = Options.parse(Arrays.copyOfRange(args, 1, args.length));
        switch (args[0]) {
            case "keys" -> {
                List<String> generated = new DevKeys(Path.of(options.required("dir"))).ensure();
                System.out.println(generated.isEmpty() ? "dev keys present" : "generated dev keys: " + String.join(", ", generated));
            }
            case "token" -> {
                String kind = options.positional(0, "token kind (operator or service)");
                DevKeys keys = new DevKeys(Path.of(options.required("keys")));
                keys.ensure();
                DevTokens tokens = new DevTokens(keys, Clock.systemUTC());
                String subject = options.positionalOr(1, kind.equals("operator") ? "operator@local" : "exam-tools");
                String token = switch (kind) {
                    case "operator" -> tokens.operator(subject, options.optional("issuer", DevTokens.DEFAULT_OPERATOR_ISSUER));
                    case "service" -> tokens.service(subject);
                    default -> throw new UsageException("no such token kind: " + kind + " (operator or service)");
                };
                System.out.println(token);
            }
            case "databases" -> {
                Databases databases = new Databases(options.required("host"), Integer.parseInt(options.required("port")),
                        options.required("user"), options.optional("password", ""));
                List<String> created = databases.ensure(options.positionals());
                System.out.println(created.isEmpty() ? "databases present: " + String.join(", ", options.positionals())
                        : "created databases: " + String.join(", ", created));
            }
            case "infra" -> {
                EmbeddedInfra.PostgresSpec postgres = options.has("pg-port")
                        ? new EmbeddedInfra.PostgresSpec(options.optional("pg-host", "127.0.0.1"),
                                Integer.parseInt(options.required("pg-port")), Path.of(options.required("pg-data")),
                                Path.of(options.required("pg-bin")))
                        : null;
                EmbeddedInfra.RedisSpec redis = options.has("redis-port")
                        ? new EmbeddedInfra.RedisSpec(options.optional("redis-host", "127.0.0.1"),
                                Integer.parseInt(options.required("redis-port")), Path.of(options.required("redis-dir")))
                        : null;
                if (postgres == null && redis == null) {
                    throw new UsageException("infra: nothing to start (--pg-port and/or --redis-port)");
                }
                EmbeddedInfra.runUntilStopped(postgres, redis);
            }
            case "redis-binary" -> System.out.println(RedisClusterFormer.redisServerBinary(Path.of(options.required("dir"))));
            case "redis-cluster" -> {
                String action = options.positional(0, "redis-cluster action (create)");
                if (!action.equals("create")) {
                    throw new UsageException("no such redis-cluster action: " + action + " (create)");
                }
                List<Integer> ports = new ArrayList<>();
                for (String port : options.required("ports").split(",")) {
                    ports.add(Integer.parseInt(port.strip()));
                }
                String host = options.optional("host", "127.0.0.1");
                new RedisClusterFormer(host, ports, Duration.ofSeconds(60)).form();
                System.out.println("Redis Cluster formed on " + host + ": masters " + ports.subList(0, ports.size() / 2)
                        + ", replicas " + ports.subList(ports.size() / 2, ports.size()));
            }
            case "capacity" -> {
                Capacity.Exam exam = new Capacity.Exam(Long.parseLong(options.required("candidates")),
                        seconds(options.optional("autosave-every", "15")), seconds(options.optional("submit-window", "60")),
                        seconds(options.optional("start-window", "60")), seconds(options.optional("heartbeat-every", "30")),
                        seconds(options.optional("grade-within", "30m")),
                        !options.optional("live", "on").equals("off"));
                Capacity.Plan plan = new Capacity.Plan(Double.parseDouble(options.optional("headroom", "0.6")),
                        Double.parseDouble(options.optional("cores-per-replica", "2")),
                        Integer.parseInt(options.optional("min-replicas", "2")));
                if (exam.candidates() < 1 || plan.headroom() <= 0 || plan.headroom() > 1 || plan.coresPerReplica() <= 0) {
                    throw new UsageException("capacity: --candidates ≥ 1, 0 < --headroom ≤ 1, --cores-per-replica > 0");
                }
                Capacity capacity = Capacity.load(Path.of(options.required("figures")));
                System.out.print(Capacity.report(exam, plan, capacity.size(exam, plan)));
            }
            default -> throw new UsageException("unknown command: " + args[0]);
        }
        return 0;
    }

    /** "90", "90s", "5m": a duration in seconds, above 0. */
    static double seconds(String text) {
        String t = text.strip().toLowerCase(java.util.Locale.ROOT);
        double value = t.endsWith("m") ? Double.parseDouble(t.substring(0, t.length() - 1)) * 60
                : Double.parseDouble(t.endsWith("s") ? t.substring(0, t.length() - 1) : t);
        if (!(value > 0)) {
            throw new UsageException("a duration above 0 is needed, not " + text);
        }
        return value;
    }

    static final class UsageException extends RuntimeException {
        UsageException(String message) {
            super(message);
        }
    }

    /** {@code --name value} options and positional arguments, nothing more. */
    record Options(Map<String, String> named, List<String> positionals) {
        static Options parse(String[] args) {
            Map<String, String> named = new HashMap<>();
            List<String> positionals = new ArrayList<>();
            for (int i = 0; i < args.length; i++) {
                if (args[i].startsWith("--")) {
                    if (i + 1 >= args.length) {
                        throw new UsageException(args[i] + " needs a value");
                    }
                    named.put(args[i].substring(2), args[++i]);
                } else {
                    positionals.add(args[i]);
                }
            }
            return new Options(named, positionals);
        }

        boolean has(String name) {
            return named.containsKey(name);
        }

        String required(String name) {
            String value = named.get(name);
            if (value == null) {
                throw new UsageException("--" + name + " is required");
            }
            return value;
        }

        String optional(String name, String fallback) {
            return named.getOrDefault(name, fallback);
        }

        String positional(int index, String what) {
            if (index >= positionals.size()) {
                throw new UsageException(what + " is required");
            }
            return positionals.get(index);
        }

        String positionalOr(int index, String fallback) {
            return index < positionals.size() ? positionals.get(index) : fallback;
        }
    }
}
