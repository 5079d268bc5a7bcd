package org.examsuite.tools.images;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.examsuite.tools.host.Fail;
import org.examsuite.tools.host.PidFiles;
import org.examsuite.tools.host.Probes;
import org.examsuite.tools.host.Procs;
import org.examsuite.tools.host.Say;
import org.examsuite.tools.host.Workspace;

/**
 * smoke_images: every pushed image started from what the registry serves, chroot'ed as its user
 * with its entrypoint and command and /proc mounted, as a container runtime would: the exam page
 * serves its files (nginx on a free port by a copy of its configuration), each service (and its
 * native image, when pushed) becomes ready on a free port against this run's PostgreSQL and Redis.
 */
final class Smoke {
    static final List<String> PAGE_PATHS = List.of("/", "/sw.js", "/console/", "/console/config.json", "/sdk/index.js", "/content.js",
            "/vendor/katex/katex.mjs", "/vendor/katex/fonts/KaTeX_Main-Regular.woff2");
    private static final Pattern STARTED = Pattern.compile("started in [0-9.]*s");

    private final Workspace ws;
    private final Procs procs;
    private final Children children;
    private final ImageSupport support;
    private final Path imagesDir;

    Smoke(Workspace ws, Procs procs, Children children, ImageSupport support, Path imagesDir) {
        this.ws = ws;
        this.procs = procs;
        this.children = children;
        this.support = support;
        this.imagesDir = imagesDir;
    }

    /** An image to run: the chart's KEY ("frontend" or a service's), its repository, "" or "-native". */
    record Target(String key, String repository, String suffix) {
        String name() {
            return repository.substring(repository.lastIndexOf('/') + 1) + suffix;
        }
    }

    /** True when every image ran as it should. */
    boolean run(Path values, List<Chart.Repository> chart) {
        if (!Procs.isRoot()) {
            Say.warn("running the images needs root (chroot, mount /proc): not done; run ./exam test images as root");
            return false;
        }
        ValuesFile.Pushed pushed;
        try {
            pushed = ValuesFile.Pushed.read(Files.readAllLines(values));
        } catch (IOException e) {
            throw new Fail("cannot read " + values + ": " + e.getMessage());
        }
        Registry registry = new Registry(pushed.registry());
        Map<String, String> serviceEnv = serviceEnv(); // ensure_keys, export_service_env
        List<Target> targets = new ArrayList<>();
        chart.forEach(r -> targets.add(new Target(r.key(), r.repository(), "")));
        pushed.nativeRepositories().forEach(r -> targets.add(new Target("service", r, "-native")));
        boolean failed = false;
        for (Target target : targets) {
            Path dir = imagesDir.resolve("run").resolve(target.name());
            try {
                unpack(registry, target.repository(), pushed.tag() + target.suffix(), dir);
            } catch (Fail e) {
                Say.warn(e.getMessage());
                failed = true;
                continue;
            }
            Object config = readConfig(dir);
            boolean ok = target.key().equals("frontend") ? page(target, dir, config)
                    : service(target, pushed.tag(), dir, config, serviceEnv);
            failed |= !ok;
        }
        return !failed;
    }

    /** unpack_image: REPO:TAG's layers as the registry serves them, in DIR; its config beside it (DIR.config.json). */
    void unpack(Registry registry, String repo, String tag, Path dir) {
        RootFs.remove(dir);
        RootFs.mkdirs(dir);
        Object manifest = registry.manifest(repo, tag);
        for (Object layer : (List<?>) Json.at(manifest, "layers")) {
            String digest = (String) Json.at(layer, "digest");
            try (InputStream blob = registry.blobStream(repo, digest)) {
                // whiteouts are not handled: these images have none
                if (children.feed(blob, List.of("tar", "--warning=no-unknown-keyword", "-xzf", "-", "-C", dir.toString())) != 0) {
                    throw new Fail("cannot unpack " + repo + ":" + tag + "'s layer " + digest);
                }
            } catch (IOException e) {
                throw new Fail("cannot unpack " + repo + ":" + tag + ": " + e.getMessage());
            }
        }
        byte[] config = registry.blob(repo, (String) Json.at(manifest, "config", "digest"));
        try {
            Files.write(configFile(dir), config);
        } catch (IOException e) {
            throw new Fail("cannot write " + configFile(dir) + ": " + e.getMessage());
        }
    }

    private static Path configFile(Path dir) {
        return dir.resolveSibling(dir.getFileName() + ".config.json");
    }

    private static Object readConfig(Path dir) {
        try {
            return Json.parse(Files.readString(configFile(dir)));
        } catch (IOException e) {
            throw new Fail("cannot read " + configFile(dir) + ": " + e.getMessage());
        }
    }

    private boolean page(Target target, Path dir, Object config) {
        int port = Probes.freePort(18080);
        Path conf = dir.resolve("etc/nginx/nginx.conf");
        try {
            Files.writeString(conf, Files.readString(conf).replace("listen 8080;", "listen 127.0.0.1:" + port + ";"));
        } catch (IOException e) {
            Say.warn("cannot rewrite " + conf + ": " + e.getMessage());
            return false;
        }
        Path log = ws.logDir().resolve("image-run-exam-client.log");
        long pid;
        try {
            pid = start(dir, config, Map.of(), log);
        } catch (Fail e) {
            Say.warn(e.getMessage());
            return false;
        }
        boolean ok = true;
        for (String path : PAGE_PATHS) {
            int status = 0;
            for (int i = 0; i < 20; i++) {
                status = Probes.httpStatus("127.0.0.1", port, path);
                if (status == 200) {
                    break;
                }
                LocalRegistry.sleep(500);
            }
            if (status != 200) {
                Say.warn("exam page image: GET " + path + " → " + String.format("%03d", status));
                ok = false;
            }
        }
        if (Probes.httpStatus("127.0.0.1", port, "/internal/x") != 404) {
            Say.warn("exam page image serves /internal");
            ok = false;
        }
        stop(dir, pid);
        if (ok) {
            Say.say("ran " + target.repository() + ": /, /sw.js, /console/ (and its config.json), /sdk/index.js, /content.js and the vendored KaTeX served as "
                    + Json.at(config, "config", "User"));
        } else {
            Children.logTail(log);
        }
        return ok;
    }

    private boolean service(Target target, String tag, Path dir, Object config, Map<String, String> serviceEnv) {
        String name = target.name();
        int port = Probes.freePort(18181);
        Map<String, String> env = new LinkedHashMap<>();
        env.put("EXAM_HTTP_PORT", Integer.toString(port));
        env.put("EXAM_DB_NAME", ws.env("EXAM_TEST_DB_NAME"));
        for (String key : List.of("EXAM_DB_HOST", "EXAM_DB_PORT", "EXAM_DB_USER", "EXAM_DB_PASSWORD")) {
            env.put(key, ws.env(key));
        }
        env.put("EXAM_REDIS_URL", ws.env("EXAM_TEST_REDIS_URL", ws.env("EXAM_REDIS_URL")));
        env.put("QUARKUS_PROFILE", "prod");
        env.put("QUARKUS_OTEL_SDK_DISABLED", "true");
        env.putAll(serviceEnv);
        env.put("MALLOC_ARENA_MAX", "2");
        Path log = ws.logDir().resolve("image-run-" + name + ".log");
        long pid;
        try {
            pid = start(dir, config, env, log);
        } catch (Fail e) {
            Say.warn(e.getMessage());
            return false;
        }
        long deadline = System.nanoTime() + 120_000_000_000L;
        boolean ready = false;
        while (System.nanoTime() < deadline && PidFiles.alive(pid)) {
            if (Probes.httpStatus("127.0.0.1", port, "/q/health/ready") == 200) {
                ready = true;
                break;
            }
            LocalRegistry.sleep(1000);
        }
        stop(dir, pid);
        if (ready) {
            Say.say("ran " + target.repository() + ":" + tag + target.suffix() + ": ready on port " + port + " as user "
                    + Json.at(config, "config", "User") + " (" + startedIn(log) + ")");
        } else {
            Say.warn(target.repository() + " did not become ready (log: " + log + ")");
            Children.logTail(log);
        }
        return ready;
    }

    /** The keys every service is given, and those ./exam gives only some (the images get all). */
    private Map<String, String> serviceEnv() {
        Map<String, String> env = new LinkedHashMap<>(support.keyEnv());
        return env;
    }

    /**
     * run_image: the image in DIR started as its user with its entrypoint and command, chroot'ed,
     * /proc mounted (glibc resolves the JRE's $ORIGIN through it) and /dev bound; chroot cannot
     * set the working directory, so relative -jar paths are made absolute. Its pid.
     */
    long start(Path dir, Object config, Map<String, String> runEnv, Path log) {
        Path chroot = procs.which("chroot").orElseThrow(() -> new Fail("no chroot command"));
        Object user = Json.at(config, "config", "User");
        Object workdir = Json.at(config, "config", "WorkingDir");
        String cwd = workdir == null ? "/" : workdir.toString();
        List<String> args = new ArrayList<>();
        for (String key : List.of("Entrypoint", "Cmd")) {
            Object list = Json.at(config, "config", key);
            if (list instanceof List<?> items) {
                for (Object item : items) {
                    String arg = String.valueOf(item);
                    args.add(arg.endsWith(".jar") && !arg.startsWith("/") ? cwd + "/" + arg : arg);
                }
            }
        }
        RootFs.mkdirs(dir.resolve("proc"));
        RootFs.mkdirs(dir.resolve("dev"));
        if (children.quiet(List.of("mount", "-t", "proc", "proc", dir.resolve("proc").toString())) != 0
                || children.quiet(List.of("mount", "--bind", "/dev", dir.resolve("dev").toString())) != 0) {
            throw new Fail("cannot mount /proc and /dev in " + dir);
        }
        List<String> command = new ArrayList<>(List.of("env", "-i"));
        Object imageEnv = Json.at(config, "config", "Env");
        if (imageEnv instanceof List<?> items) {
            for (Object item : items) {
                for (String word : String.valueOf(item).trim().split("\\s+")) { // the bash's word splitting
                    if (!word.isEmpty()) {
                        command.add(word);
                    }
                }
            }
        }
        runEnv.forEach((k, v) -> command.add(k + "=" + v));
        command.addAll(List.of(chroot.toString(), "--userspec=" + user, dir.toString()));
        command.addAll(args);
        return procs.detach(command, Map.of(), log);
    }

    /** stop_image: SIGTERM, up to 30 s, SIGKILL; /proc and /dev unmounted. */
    void stop(Path dir, long pid) {
        ProcessHandle.of(pid).ifPresent(handle -> {
            handle.destroy();
            try {
                handle.onExit().get(30, java.util.concurrent.TimeUnit.SECONDS);
            } catch (Exception e) {
                handle.destroyForcibly();
            }
        });
        children.output(List.of("umount", dir.resolve("proc").toString(), dir.resolve("dev").toString())); // errors ignored
    }

    private static String startedIn(Path log) {
        try {
            Matcher m = STARTED.matcher(Files.readString(log, java.nio.charset.StandardCharsets.ISO_8859_1));
            return m.find() ? m.group() : "";
        } catch (IOException e) {
            return "";
        }
    }
}
