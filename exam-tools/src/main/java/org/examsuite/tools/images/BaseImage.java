package org.examsuite.tools.images;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.examsuite.tools.host.Fail;
import org.examsuite.tools.host.Procs;

/**
 * build_base_image: a JRE made with jlink from this machine's JDK 17 on a minimal root
 * filesystem (the JRE's shared libraries from this machine, /etc/passwd with UID 185), pushed as
 * examsuite/jre17:VERSION. Not in the chart: only the services' images are built FROM it.
 */
final class BaseImage {
    static final String REPOSITORY = "examsuite/jre17";
    /**
     * What Quarkus, Vert.x, Netty, Hibernate, the PostgreSQL driver, OpenTelemetry and Micrometer
     * use at run time (java.desktop for java.beans), plus JFR and jcmd support for diagnosing a pod.
     */
    static final String MODULES = "java.base,java.compiler,java.desktop,java.instrument,java.logging,java.management,"
            + "java.management.rmi,java.naming,java.net.http,java.prefs,java.rmi,java.scripting,java.security.jgss,"
            + "java.security.sasl,java.sql,java.transaction.xa,java.xml,jdk.attach,jdk.crypto.cryptoki,jdk.crypto.ec,"
            + "jdk.jfr,jdk.jcmd,jdk.management,jdk.management.agent,jdk.naming.dns,jdk.net,jdk.unsupported,jdk.zipfs";
    /**
     * java.desktop's AWT, sound and font libraries are never loaded headless (java.beans is what
     * is used): their X11/ALSA/FreeType dependencies stay out of the image.
     */
    static final Set<String> HEADLESS_UNUSED = Set.of("libjawt.so", "libsplashscreen.so", "libjsound.so",
            "libfontmanager.so", "liblcms.so", "libjavajpeg.so", "libmlib_image.so");

    private final Procs procs;
    private final Children children;
    private final Layers layers;
    private final RootFs rootFs;
    private final Path work;

    BaseImage(Procs procs, Children children, Layers layers, RootFs rootFs, Path imagesDir) {
        this.procs = procs;
        this.children = children;
        this.layers = layers;
        this.rootFs = rootFs;
        this.work = imagesDir.resolve("base");
    }

    /** Builds and pushes it; its reference, REGISTRY/examsuite/jre17:VERSION. */
    String build(Registry registry, String created) {
        Path javaHome = javaHome();
        if (!Files.isExecutable(javaHome.resolve("bin/jlink"))) {
            throw new Fail("jlink not found next to java (" + javaHome + "): a JDK (not a JRE) is needed");
        }
        String version = javaVersion(children.merged(List.of(javaHome.resolve("bin/java").toString(),
                "-XshowSettings:properties", "-version")));
        if (!version.startsWith("17.")) {
            throw new Fail("the JVM images need a JDK 17 for jlink (found " + version + " in " + javaHome + ")");
        }
        RootFs.remove(work);
        Path jre = RootFs.mkdirs(work.resolve("jre/opt"));
        Path root = RootFs.mkdirs(work.resolve("root"));
        Path java = jre.resolve("java");
        Procs.Result jlink = procs.capture(List.of(javaHome.resolve("bin/jlink").toString(), "--add-modules", MODULES,
                "--strip-debug", "--no-man-pages", "--no-header-files", "--compress=2", "--output", java.toString()));
        System.err.print(jlink.out()); // jlink's words are progress, not the result
        if (!jlink.ok()) {
            throw new Fail("jlink failed (exit " + jlink.exitCode() + ")");
        }
        rootFs.create(root);
        List<Path> loaded = new ArrayList<>();
        loaded.add(java.resolve("bin/java"));
        loaded.addAll(libraries(java));
        rootFs.copyLibs(root, work.resolve("jre"), loaded);
        Path rootLayer = work.resolve("root.tar.gz");
        Path jreLayer = work.resolve("jre.tar.gz");
        layers.layer(root, rootLayer);
        layers.layer(work.resolve("jre"), jreLayer);
        Path config = work.resolve("config.json");
        RootFs.write(config, OciJson.config(config(version), Images.diffIds(rootLayer, jreLayer), created));
        registry.pushImage(REPOSITORY, version, config, List.of(rootLayer, jreLayer));
        return registry.address() + "/" + REPOSITORY + ":" + version;
    }

    static java.util.Map<String, Object> config(String version) {
        return OciJson.object("User", "185", "WorkingDir", "/tmp",
                "Env", List.of("PATH=/opt/java/bin:/usr/bin:/bin", "JAVA_HOME=/opt/java", "LANG=C.UTF-8"),
                "Labels", OciJson.object("org.opencontainers.image.title", "jre17",
                        "org.opencontainers.image.version", version,
                        "org.opencontainers.image.description", "jlink JRE on a minimal root filesystem (./exam images)"));
    }

    /** The JDK of jlink (else java) on the PATH: two levels above the program the link resolves to. */
    private Path javaHome() {
        Path program = procs.which("jlink").or(() -> procs.which("java"))
                .orElseThrow(() -> new Fail("a JDK 17 or newer is needed (java not found on PATH)"));
        try {
            return program.toRealPath().getParent().getParent();
        } catch (IOException e) {
            throw new Fail("cannot resolve " + program + ": " + e.getMessage());
        }
    }

    /** java.version from -XshowSettings:properties. */
    static String javaVersion(String settings) {
        for (String line : settings.split("\n")) {
            String[] fields = line.strip().split("\\s+");
            if (fields.length >= 3 && fields[0].equals("java.version")) {
                return fields[2];
            }
        }
        return "";
    }

    /** The JRE's libraries that a headless JVM may load. */
    private static List<Path> libraries(Path java) {
        try (Stream<Path> walk = Files.walk(java)) {
            return walk.filter(p -> {
                String name = p.getFileName().toString();
                return name.endsWith(".so") && !name.startsWith("libawt") && !HEADLESS_UNUSED.contains(name);
            }).sorted().toList();
        } catch (IOException e) {
            throw new Fail("cannot list " + java + ": " + e.getMessage());
        }
    }
}
