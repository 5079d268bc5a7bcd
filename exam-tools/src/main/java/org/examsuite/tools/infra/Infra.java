package org.examsuite.tools.infra;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.stream.Stream;
import org.examsuite.tools.Databases;
import org.examsuite.tools.host.Fail;
import org.examsuite.tools.host.PidFiles;
import org.examsuite.tools.host.Probes;
import org.examsuite.tools.host.Procs;
import org.examsuite.tools.host.Say;
import org.examsuite.tools.host.Workspace;

/**
 * PostgreSQL and Redis for the suite: what answers at the configured addresses is used; on this
 * machine's loopback, embedded ones (exam-tools' daemon, {@code ExamTools infra}) are started for
 * what does not. A Redis Cluster is ./exam's own ({@link LocalCluster}) or the user's.
 */
public final class Infra {
    static final String MARKER = "org.examsuite.tools.ExamTools infra";
    private static final String NAME = "infra";

    private final Workspace ws;
    private final Procs procs;
    private final PidFiles pids;
    private final SuiteRedis redis;
    private long startedEmbedded;

    public Infra(Workspace ws, Procs procs, PidFiles pids, SuiteRedis redis) {
        this.ws = ws;
        this.procs = procs;
        this.pids = pids;
        this.redis = redis;
    }

    public String dbHost() {
        return ws.env("EXAM_DB_HOST");
    }

    public int dbPort() {
        return ws.envInt("EXAM_DB_PORT", 5432);
    }

    /** ensure_infra: PostgreSQL and Redis answer, and the suite's databases exist. */
    public void ensure() {
        boolean wantPg = false;
        boolean wantRedis = false;
        if (Probes.postgres(procs, dbHost(), dbPort())) {
            Say.say("PostgreSQL answers at " + dbHost() + ":" + dbPort());
        } else if (Probes.isLoopback(dbHost())) {
            wantPg = true;
        } else {
            throw new Fail("PostgreSQL does not answer at " + dbHost() + ":" + dbPort()
                    + " (embedded ones start only on this machine's loopback)");
        }
        RedisUrl url = RedisUrl.first(ws.env("EXAM_REDIS_URL"));
        if (redis.mode() != SuiteRedis.Mode.STANDALONE) {
            redis.ensureCluster(); // ./exam's own or the user's, never the embedded one
        } else if (Probes.redis(url.host(), url.port())) {
            Say.say("Redis answers at " + url.host() + ":" + url.port());
        } else if (Probes.isLoopback(url.host())) {
            wantRedis = true;
        } else {
            throw new Fail("Redis does not answer at " + url.host() + ":" + url.port()
                    + " (embedded ones start only on this machine's loopback)");
        }
        if (wantPg || wantRedis) {
            if (pids.running(NAME, MARKER).isPresent()) {
                throw new Fail("an embedded daemon started earlier runs but does not answer at the configured addresses; "
                        + "run ./exam down first (log: " + ws.logDir().resolve("infra.log") + ")");
            }
            startEmbedded(wantPg, wantRedis, url);
        }
        ensureDatabases();
    }

    private void ensureDatabases() {
        List<String> names = List.of(ws.env("EXAM_DB_NAME"), ws.env("EXAM_TEST_DB_NAME"));
        try {
            List<String> created = new Databases(dbHost(), dbPort(), ws.env("EXAM_DB_USER"), ws.env("EXAM_DB_PASSWORD")).ensure(names);
            Say.say(created.isEmpty() ? "databases present: " + String.join(", ", names)
                    : "created databases: " + String.join(", ", created));
        } catch (SQLException e) {
            throw new Fail("cannot create the databases " + names + " at " + dbHost() + ":" + dbPort() + ": " + e.getMessage());
        }
    }

    /** Did this process start the embedded daemon (to stop it at the end of ./exam test)? */
    public boolean startedEmbedded() {
        return startedEmbedded != 0;
    }

    public OptionalLong embeddedRunning() {
        return pids.running(NAME, MARKER);
    }

    private void startEmbedded(boolean wantPg, boolean wantRedis, RedisUrl url) {
        EmbeddedLayout layout = EmbeddedLayout.of(ws, procs);
        List<String> args = new ArrayList<>();
        if (wantPg) {
            args.addAll(List.of("--pg-host", dbHost(), "--pg-port", Integer.toString(dbPort()),
                    "--pg-data", layout.dir().resolve("pg").toString(), "--pg-bin", layout.dir().resolve("pg-bin").toString()));
        }
        if (wantRedis) {
            String bind = url.host().equals("localhost") ? "127.0.0.1" : url.host();
            args.addAll(List.of("--redis-host", bind, "--redis-port", Integer.toString(url.port()),
                    "--redis-dir", layout.dir().resolve("redis").toString()));
        }
        for (String sub : List.of("pg", "pg-bin", "redis")) {
            Workspace.mkdirs(layout.dir().resolve(sub));
        }
        List<String> command = new ArrayList<>(layout.launcher());
        command.addAll(List.of("java", "-Xmx96m", "-cp", layout.classpath(System.getProperty("java.class.path")),
                "org.examsuite.tools.ExamTools", "infra"));
        command.addAll(args);
        Path log = ws.logDir().resolve("infra.log");
        Say.say(layout.user().isEmpty() ? "starting embedded PostgreSQL/Redis; data in " + layout.dir()
                : "starting embedded PostgreSQL/Redis as '" + layout.user() + "' (PostgreSQL refuses root); data in " + layout.dir());
        long pid = procs.detach(command, java.util.Map.of(), log);
        pids.record(NAME, pid);
        startedEmbedded = pid;
        // The first start unpacks PostgreSQL and runs initdb: allow for a slow machine.
        long deadline = System.nanoTime() + 300_000_000_000L;
        while (!((!wantPg || Probes.postgres(procs, dbHost(), dbPort()))
                && (!wantRedis || Probes.redis(url.host(), url.port())) && Probes.logSays(log, "embedded infrastructure ready"))) {
            if (!PidFiles.alive(pid) || System.nanoTime() > deadline) {
                Say.tail(log);
                pids.stop(NAME, MARKER, 30);
                startedEmbedded = 0;
                throw new Fail("embedded PostgreSQL/Redis did not come up (log: " + log + ")");
            }
            sleep(1000);
        }
        if (wantPg) {
            Say.say("PostgreSQL (embedded) at " + dbHost() + ":" + dbPort());
        }
        if (wantRedis) {
            Say.say("Redis (embedded) at " + url.host() + ":" + url.port());
        }
    }

    /**
     * Stops the embedded daemon, and the servers a daemon killed hard left behind — only ever those
     * of our own data directories.
     */
    public void stopEmbedded() {
        pids.stop(NAME, MARKER, 60);
        startedEmbedded = 0;
        for (Path dir : List.of(ws.stateDir(), EmbeddedLayout.nobodyDir(ws))) {
            stopLeftBehind(dir.resolve("pg/postmaster.pid"), "postgres", "PostgreSQL", true);
            stopLeftBehind(dir.resolve("redis/redis.pid"), "redis-server", "Redis", false);
        }
    }

    private static void stopLeftBehind(Path pidFile, String marker, String what, boolean fast) {
        try {
            if (!Files.isRegularFile(pidFile)) {
                return;
            }
            long pid = Long.parseLong(Files.readAllLines(pidFile).get(0).strip());
            if (PidFiles.commandLine(pid).contains(marker)) {
                Say.say("stopping the embedded " + what + " left behind (pid " + pid + ")");
                new ProcessBuilder("kill", fast ? "-INT" : "-TERM", Long.toString(pid)).start().waitFor();
            }
        } catch (IOException | RuntimeException e) {
            // nothing left to stop
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Fail("interrupted", 130);
        }
    }

    /**
     * Where the embedded daemon keeps its files and as whom it runs: PostgreSQL refuses root, so
     * as root it runs as 'nobody', from copies of its jars that 'nobody' can read.
     */
    record EmbeddedLayout(Path dir, String user, List<String> launcher) {
        static Path nobodyDir(Workspace ws) {
            java.util.zip.CRC32 crc = new java.util.zip.CRC32();
            crc.update(ws.home().toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
            return Path.of("/var/tmp/exam-suite-" + Long.toHexString(crc.getValue()));
        }

        static EmbeddedLayout of(Workspace ws, Procs procs) {
            if (!Procs.isRoot()) {
                return new EmbeddedLayout(ws.stateDir(), "", List.of());
            }
            if (!procs.has("setpriv")) {
                throw new Fail("PostgreSQL cannot run as root and setpriv (util-linux) is missing: run ./exam as a normal user, "
                        + "or start a PostgreSQL yourself");
            }
            String gid = procs.capture(List.of("id", "-g", "nobody")).out().strip();
            if (gid.isEmpty()) {
                throw new Fail("PostgreSQL cannot run as root and there is no 'nobody' user to run it as");
            }
            List<String> launcher = List.of("setpriv", "--reuid=nobody", "--regid=" + gid, "--clear-groups", "--");
            List<String> probe = new ArrayList<>(launcher);
            probe.addAll(List.of("test", "-x", ws.stateDir().toString()));
            Path dir = ws.stateDir();
            if (!procs.capture(probe).ok()) {
                // the work tree is not reachable for 'nobody' (under /root): keep the data elsewhere
                dir = Workspace.mkdirs(nobodyDir(ws));
                procs.capture(List.of("chmod", "755", dir.toString()));
            }
            for (String sub : List.of("pg", "pg-bin", "redis")) {
                Workspace.mkdirs(dir.resolve(sub));
                procs.capture(List.of("chown", "-R", "nobody:" + gid, dir.resolve(sub).toString()));
            }
            return new EmbeddedLayout(dir, "nobody", launcher);
        }

        /** The class path as given, or, for 'nobody', hard links (copies) of it under DIR/lib. */
        String classpath(String classpath) {
            if (user.isEmpty()) {
                return classpath;
            }
            Path lib = Workspace.mkdirs(dir.resolve("lib"));
            List<String> copies = new ArrayList<>();
            try {
                for (String entry : classpath.split(":")) {
                    Path from = Path.of(entry);
                    if (Files.isDirectory(from)) {
                        Path to = lib.resolve("classes-" + copies.size());
                        copyTree(from, to);
                        copies.add(to.toString());
                    } else if (Files.isRegularFile(from)) {
                        Path to = lib.resolve(from.getFileName());
                        if (!Files.exists(to) || Files.getLastModifiedTime(from).compareTo(Files.getLastModifiedTime(to)) > 0) {
                            Files.deleteIfExists(to);
                            try {
                                Files.createLink(to, from);
                            } catch (IOException | UnsupportedOperationException e) {
                                Files.copy(from, to, StandardCopyOption.REPLACE_EXISTING);
                            }
                        }
                        copies.add(to.toString());
                    }
                }
                new ProcessBuilder("chmod", "-R", "a+rX", lib.toString()).start().waitFor();
            } catch (IOException e) {
                throw new Fail("cannot make exam-tools readable for 'nobody' in " + lib + ": " + e.getMessage());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return String.join(":", copies);
        }

        private static void copyTree(Path from, Path to) throws IOException {
            if (Files.exists(to)) {
                try (Stream<Path> old = Files.walk(to)) {
                    for (Path p : old.sorted(java.util.Comparator.reverseOrder()).toList()) {
                        Files.delete(p);
                    }
                }
            }
            try (Stream<Path> files = Files.walk(from)) {
                for (Path p : files.toList()) {
                    Path target = to.resolve(from.relativize(p).toString());
                    if (Files.isDirectory(p)) {
                        Files.createDirectories(target);
                    } else {
                        try {
                            Files.copy(p, target);
                        } catch (FileAlreadyExistsException e) {
                            // copied already
                        }
                    }
                }
            }
        }
    }
}
