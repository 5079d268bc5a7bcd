package org.examsuite.tools.images;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import org.examsuite.tools.host.Fail;
import org.examsuite.tools.host.Procs;
import org.examsuite.tools.host.Say;
import org.examsuite.tools.host.Workspace;

/**
 * ./exam images: the five OCI images (four services, the exam page), and each service's native
 * image when its executable is built, made without a container daemon and pushed to a registry,
 * then checked (docs/operations.md, "Images"). Names come from the chart (values.yaml's
 * repositories, Chart.yaml's appVersion as the tag); what was pushed is written to
 * .exam/images/values.yaml, which the check renders the chart with.
 */
public final class Images {
    static final String DEFAULT_REGISTRY = "127.0.0.1:5000";
    private static final DateTimeFormatter CREATED = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss'Z'")
            .withZone(ZoneOffset.UTC);

    private final Workspace ws;
    private final Procs procs;
    private final ImageSupport support;
    private final Children children;
    private final Layers layers;
    private final RootFs rootFs;
    private final Chart chart;
    private final LocalRegistry localRegistry;

    /**
     * What ./exam images takes. REGISTRY: HOST:PORT, null for EXAM_IMAGE_REGISTRY or 127.0.0.1:5000;
     * PUSH is always the case (a daemon-less build ends in a registry) and accepted for the
     * bash's sake; NO_VERIFY skips the check against the chart.
     */
    public record Options(String registry, boolean push, boolean noVerify) {
        public Options {
            if (registry != null && (registry.isBlank() || registry.chars().anyMatch(Character::isWhitespace))) {
                throw Fail.usage("images: --registry takes HOST:PORT, not '" + registry + "'");
            }
        }

        public static Options defaults() {
            return new Options(null, false, false);
        }

        /** The registry to push to: the option, else EXAM_IMAGE_REGISTRY, else 127.0.0.1:5000. */
        public String registryOr(Workspace ws) {
            return registry != null ? registry : ws.env("EXAM_IMAGE_REGISTRY", DEFAULT_REGISTRY);
        }
    }

    public Images(Workspace ws, Procs procs, ImageSupport support) {
        this.ws = ws;
        this.procs = procs;
        this.support = support;
        this.children = new Children(ws);
        this.layers = new Layers(children);
        this.rootFs = new RootFs(children);
        this.chart = new Chart(ws.path("k8s/chart/exam-suite"));
        this.localRegistry = new LocalRegistry(ws, procs);
    }

    Path imagesDir() {
        return ws.stateDir().resolve("images");
    }

    /** cmd_images: builds, pushes, writes values.yaml and (unless --no-verify) checks; the exit code. */
    public int run(Options options) {
        String address = options.registryOr(ws);
        if (!procs.has("java")) {
            throw new Fail("a JDK 17 or newer is needed (java not found on PATH)");
        }
        Path imagesDir = Workspace.mkdirs(imagesDir());
        ws.runDir();
        Path logDir = ws.logDir();
        long started = System.nanoTime();
        String tag = chart.tag();
        String revision = revision();
        String created = CREATED.format(Instant.now().truncatedTo(ChronoUnit.SECONDS));
        Registry registry = new Registry(address);
        localRegistry.ensure(registry);

        String base = ws.env("EXAM_IMAGE_BASE");
        if (!base.isEmpty()) {
            // An operator's own base (e.g. registry.access.redhat.com/ubi9/openjdk-17-runtime): the one
            // setting that replaces the locally built one.
            Say.say("== base image: " + base + " (EXAM_IMAGE_BASE)");
        } else {
            Say.say("== base image: jlink JRE");
            base = new BaseImage(procs, children, layers, rootFs, imagesDir).build(registry, created);
            Say.say("pushed " + base + " (" + seconds(started) + " s)");
        }

        Say.say("== suite-contracts, suite-common, suite-testing (what the services are built with)");
        int rc = procs.run(mvnw("-q", "install", "-DskipTests", "-pl", "suite-contracts,suite-common,suite-testing", "-am"));
        if (rc != 0) {
            return rc;
        }

        Path values = imagesDir.resolve("values.yaml");
        ValuesFile file = new ValuesFile(created, revision, values.toString(), address, tag);
        ServiceImage services = new ServiceImage(children, ws.home(), logDir);
        NativeImage natives = new NativeImage(children, layers, rootFs, ws.home(), imagesDir);
        PageImage page = new PageImage(procs, children, layers, rootFs, ws.home(), imagesDir);
        for (Chart.Repository repo : chart.repositories()) {
            String digest;
            if (repo.frontend()) {
                Say.say("== exam page: " + address + "/" + repo.repository() + ":" + tag);
                digest = page.build(registry, repo.repository(), tag, revision, created);
                if (digest == null) {
                    return 1;
                }
                file.frontend(repo.repository(), digest);
            } else {
                String svc = repo.name();
                Say.say("== " + svc + ": " + address + "/" + repo.repository() + ":" + tag);
                digest = services.build(registry, svc, support.jvmOpts(svc), repo.repository(), tag, base, revision, created);
                if (digest == null) {
                    return 1;
                }
            }
            if (digest.isEmpty()) {
                throw new Fail("no manifest for " + address + "/" + repo.repository() + ":" + tag + " after the push");
            }
            Say.say("pushed " + address + "/" + repo.repository() + ":" + tag + "@" + digest + " (" + seconds(started) + " s)");
            if (repo.frontend()) {
                continue;
            }
            String svc = repo.name();
            String nativeDigest = null; // the native flavour (image.flavor: native) when its executable is built
            Path executable = support.nativeExecutable(svc);
            if (Files.isExecutable(executable)) {
                nativeDigest = natives.build(registry, svc, executable, support.nativeOpts(svc), repo.repository(), tag,
                        revision, created);
                Say.say("pushed " + address + "/" + repo.repository() + ":" + tag + "-native@" + nativeDigest + " ("
                        + seconds(started) + " s)");
            } else {
                Say.say("no native image of " + svc + ": " + executable + " is not built (./exam build --native " + svc + ")");
            }
            file.service(repo.key(), repo.repository(), digest, nativeDigest);
        }
        write(values, file.text());
        Say.say("wrote .exam/images/values.yaml (" + seconds(started) + " s)");

        return options.noVerify() ? 0 : verify(values);
    }

    /**
     * verify_images: the k8s module's PushedImagesTest (profile images) reads every pushed manifest
     * and config from the registry's HTTP API and renders the chart with VALUES.
     */
    int verify(Path values) {
        Say.say("== checking the pushed images and the chart's references to them");
        int rc = children.quiet(mvnw("-q", "install", "-DskipTests", "-pl", "k8s", "-am"));
        if (rc != 0) {
            return rc;
        }
        List<String> command = mvnw("-pl", "k8s", "test", "-Pimages", "-Dexam.images.values=" + values);
        for (String svc : support.services()) {
            command.add("-Dexam.images.jvm." + svc + "=" + support.jvmOpts(svc));
        }
        for (String svc : support.services()) {
            command.add("-Dexam.images.native." + svc + "=" + support.nativeOpts(svc));
        }
        return procs.run(command);
    }

    /**
     * stage_images (./exam test images): the command against EXAM_IMAGE_REGISTRY or
     * 127.0.0.1:5000, then each pushed image run from the registry's layers; a registry started
     * here is stopped again.
     */
    public int stage() {
        long began = System.nanoTime();
        int rc = 0;
        try {
            try {
                rc = run(Options.defaults()) == 0 ? 0 : 1;
            } catch (Fail e) {
                Say.warn(e.getMessage());
                rc = 1;
            }
            Say.say("./exam images took " + seconds(began) + " s");
            if (rc == 0) {
                Say.say("== running each pushed image (chroot, from the registry's layers)");
                if (!new Smoke(ws, procs, children, support, imagesDir()).run(imagesDir().resolve("values.yaml"),
                        chart.repositories())) {
                    rc = 1;
                }
            }
            return rc;
        } finally {
            if (localRegistry.started()) {
                localRegistry.stop();
            }
        }
    }

    private List<String> mvnw(String... args) {
        List<String> command = new ArrayList<>(List.of(ws.home().resolve("mvnw").toString(), "-B"));
        command.addAll(List.of(args));
        return command;
    }

    private String revision() {
        Procs.Result git = procs.capture(List.of("sh", "-c", "git -C \"$0\" rev-parse HEAD 2>/dev/null", ws.home().toString()));
        return git.ok() ? git.out().strip() : "unknown";
    }

    static List<String> diffIds(Path... layerFiles) {
        List<String> ids = new ArrayList<>();
        for (Path layer : layerFiles) {
            ids.add("sha256:" + Layers.diffId(layer));
        }
        return ids;
    }

    private static long seconds(long startedNanos) {
        return (System.nanoTime() - startedNanos) / 1_000_000_000L;
    }

    private static void write(Path values, String text) {
        Path next = values.resolveSibling(values.getFileName() + ".new");
        try {
            Files.writeString(next, text);
            Files.move(next, values, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new Fail("cannot write " + values + ": " + e.getMessage());
        }
    }
}
