package org.examsuite.answer.outage;

import org.examsuite.common.redis.SharedRedisDataSource;
import static org.awaitility.Awaitility.await;
import static org.examsuite.answer.support.Fixtures.change;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.ExtractableResponse;
import io.restassured.response.Response;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisOptions;
import io.vertx.redis.client.Request;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.examsuite.answer.support.Fixtures;
import org.examsuite.answer.support.Fixtures.TestSession;
import org.examsuite.answer.support.SessionServiceStub;
import org.examsuite.common.redis.RedisKeys;
import org.examsuite.testing.TestKeys;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;

/**
 * The durability guarantee of docs/answer-durability.md on a real Redis Cluster: {@code kill -9}
 * of the master that owns a session's slot, its replica promoted, loses no acknowledged answer
 * (each was confirmed by the replica with WAIT before its 200) and changes no generation; while
 * the slot has no master, autosaves answer 503 with Retry-After, never 500. Then the promoted
 * master has no replica — and the session saves again all the same, before the killed node is
 * back (its writes go to PostgreSQL before their 200). The same for a killed replica. The killed
 * node is started again with its own command line and rejoins as a replica, so the cluster is
 * whole for the tests after this one. (Runs in ./exam test's cluster stage.)
 */
@QuarkusTest
@QuarkusTestResource(TestKeys.class)
@QuarkusTestResource(SessionServiceStub.class)
@EnabledIfEnvironmentVariable(named = "EXAM_TEST_REDIS_CLIENT_TYPE", matches = "cluster")
class RedisFailoverTest {
    @Inject
    Fixtures fixtures;
    @Inject
    SharedRedisDataSource redis;

    @AfterEach
    void cleanUp() {
        fixtures.cleanUp();
    }

    @Test
    void killingTheMasterOfASessionLosesNoAcknowledgedAnswer() throws Exception {
        TestSession s = fixtures.session();
        for (int version = 1; version <= 20; version++) {
            s.patch(change(version, "q4", "\"v" + version + "\"")).statusCode(200);
        }
        s.patch(change(21, "q6", "\"essay\"")).statusCode(200);
        int generation = s.draft().statusCode(200).extract().path("generation");

        int port = masterPortOf(RedisKeys.draft(s.sessionId()));
        TestSession elsewhere = fixtures.session();
        while (masterPortOf(RedisKeys.draft(elsewhere.sessionId())) == port) {
            elsewhere = fixtures.session();
        }
        TestSession other = elsewhere;
        other.patch(change(1, "q4", "\"other\"")).statusCode(200);
        List<String> restart = restartCommand(port);
        long killedAt = kill(port);
        List<Integer> seen = new ArrayList<>();
        List<Integer> seenElsewhere = new ArrayList<>();
        try {
            // Until the replica is promoted: 503 + Retry-After, never 500. Then 200 again, though
            // the promoted master has no replica to confirm a write: no rejoin before that.
            // Meanwhile a session on another master saves as if nothing happened.
            int[] version = {1};
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).until(() -> {
                seenElsewhere.add(other.patch(change(++version[0], "q4", "\"other\"")).extract().statusCode());
                int status = attempt(s);
                seen.add(status);
                return status == 200;
            });
            assertTrue(seenElsewhere.stream().allMatch(code -> code == 200),
                    "a session on a healthy master during the failover: " + seenElsewhere);
            System.out.printf("RedisFailoverTest: master of the session's slot killed; saving again after %d ms%n",
                    System.currentTimeMillis() - killedAt);
            assertTrue(promotedAway(s, port), "saved on the promoted replica");
        } finally {
            rejoin(restart, port); // as a replica of the promoted one
        }
        assertTrue(seen.stream().allMatch(code -> code == 200 || code == 503), "statuses during the failover: " + seen);

        s.draft().statusCode(200).body("generation", equalTo(generation))
                .body("answers.q4.value", equalTo("v20")).body("answers.q4.version", equalTo(20))
                .body("answers.q6.value", equalTo("essay")).body("answers.q5.value", equalTo(42));
    }

    @Test
    void killingTheReplicaOfASessionsMasterDoesNotStopItSaving() throws Exception {
        TestSession s = fixtures.session();
        s.patch(change(1, "q4", "\"before\"")).statusCode(200);
        int master = masterPortOf(RedisKeys.draft(s.sessionId()));
        int replica = replicaPortOf(master);
        List<String> restart = restartCommand(replica);
        long killedAt = kill(replica);
        List<Integer> seen = new ArrayList<>();
        try {
            for (int version = 2; version <= 40; version++) { // the master has no replica from here on
                int v = version;
                await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).until(() -> {
                    ExtractableResponse<Response> reply = s.patch(change(v, "q4", "\"v" + v + "\"")).extract();
                    assertTrue(reply.statusCode() != 503 || reply.header("Retry-After") != null, "503 without Retry-After");
                    seen.add(reply.statusCode());
                    return reply.statusCode() == 200;
                });
                if (version == 2) {
                    System.out.printf("RedisFailoverTest: replica of the session's master killed; saving again after %d ms%n",
                            System.currentTimeMillis() - killedAt);
                }
            }
        } finally {
            rejoin(restart, replica);
        }
        assertTrue(seen.stream().allMatch(code -> code == 200 || code == 503), "statuses: " + seen);
        s.draft().statusCode(200).body("answers.q4.value", equalTo("v40")).body("answers.q4.version", equalTo(40));
    }

    /** SIGKILL of the node on {@code port}; when it was sent. */
    private static long kill(int port) throws Exception {
        long pid = Long.parseLong(field(nodeCommand(port, Request.cmd(Command.INFO).arg("server")), "process_id"));
        ProcessHandle.of(pid).orElseThrow().destroyForcibly();
        return System.currentTimeMillis();
    }

    /** The port of a replica of the master on {@code masterPort}, from its INFO replication. */
    private static int replicaPortOf(int masterPort) throws Exception {
        String info = nodeCommand(masterPort, Request.cmd(Command.INFO).arg("replication"));
        for (String line : info.split("\r?\n")) {
            if (line.startsWith("slave0:")) {
                for (String part : line.substring(7).split(",")) {
                    if (part.startsWith("port=")) {
                        return Integer.parseInt(part.substring(5));
                    }
                }
            }
        }
        throw new AssertionError("the master on " + masterPort + " has no replica: " + info);
    }

    private boolean promotedAway(TestSession s, int port) {
        try {
            return masterPortOf(RedisKeys.draft(s.sessionId())) != port;
        } catch (RuntimeException e) { // the cluster client itself during the failover
            return false;
        }
    }

    /** One more autosave of the session; its status (a 503 must carry Retry-After). */
    private static int attempt(TestSession s) {
        ExtractableResponse<Response> reply = s.patch(change(22, "q5", "42")).extract();
        assertTrue(reply.statusCode() != 503 || reply.header("Retry-After") != null, "503 without Retry-After");
        return reply.statusCode();
    }

    /** The port of the master serving {@code key}'s slot, from CLUSTER NODES. */
    private int masterPortOf(String key) {
        long slot = redis.execute("CLUSTER", "KEYSLOT", key).toLong();
        for (String line : redis.execute("CLUSTER", "NODES").toString().split("\n")) {
            String[] f = line.trim().split(" ");
            if (f.length < 9 || !f[2].contains("master") || f[2].contains("fail")) {
                continue;
            }
            for (int i = 8; i < f.length; i++) {
                String[] range = f[i].split("-");
                if (range[0].startsWith("[")) {
                    continue; // a slot in migration
                }
                long from = Long.parseLong(range[0]);
                long to = range.length > 1 ? Long.parseLong(range[1]) : from;
                if (slot >= from && slot <= to) {
                    String address = f[1].split("@")[0];
                    return Integer.parseInt(address.substring(address.lastIndexOf(':') + 1));
                }
            }
        }
        throw new AssertionError("no master serves slot " + slot);
    }

    /** How to start the node on {@code port} again as it runs now: its directory keeps nodes.conf and the AOF. */
    private static List<String> restartCommand(int port) throws Exception {
        List<String> command = new ArrayList<>(List.of("redis-server", "--port", Integer.toString(port), "--bind", "127.0.0.1",
                "--cluster-enabled", "yes", "--daemonize", "yes", "--save", ""));
        for (String option : List.of("dir", "cluster-config-file", "cluster-node-timeout", "cluster-require-full-coverage", "appendonly", "appendfsync",
                "pidfile", "logfile")) {
            io.vertx.redis.client.Response reply = nodeReply(port, Request.cmd(Command.CONFIG).arg("GET").arg(option));
            String value = reply.containsKey(option) ? reply.get(option).toString() // RESP3: a map
                    : reply.size() == 2 ? reply.get(1).toString() : null; // RESP2: [name, value]
            if (value != null && !value.isBlank()) {
                command.add("--" + option);
                command.add(value);
            }
        }
        return command;
    }

    private static void rejoin(List<String> command, int port) throws Exception {
        new ProcessBuilder(command).inheritIO().start().waitFor(30, TimeUnit.SECONDS);
        await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(500)).ignoreExceptions()
                .until(() -> nodeCommand(port, Request.cmd(Command.INFO).arg("replication")).contains("master_link_status:up"));
    }

    private static String field(String info, String name) {
        for (String line : info.split("\r?\n")) {
            if (line.startsWith(name + ":")) {
                return line.substring(name.length() + 1).trim();
            }
        }
        throw new AssertionError("no " + name + " in " + info);
    }

    private static String nodeCommand(int port, Request request) throws Exception {
        return nodeReply(port, request).toString();
    }

    /** One command to one node (not through the cluster client, which routes by key). */
    private static io.vertx.redis.client.Response nodeReply(int port, Request request) throws Exception {
        Vertx vertx = Vertx.vertx();
        try {
            Redis node = Redis.createClient(vertx, new RedisOptions().setConnectionString("redis://127.0.0.1:" + port));
            return node.send(request).toCompletionStage().toCompletableFuture().get(5, TimeUnit.SECONDS);
        } finally {
            vertx.close();
        }
    }
}
