package org.examsuite.tools.images;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.examsuite.tools.host.Fail;

/**
 * build_native_image: the service's native executable (./exam build --native) as /app/service on
 * a minimal root filesystem (what it loads, ldd: glibc, libz; and RootFs' files) as UID 1001,
 * with the service's own OCI labels and port, pushed as REPO:TAG-native. Its Cmd is the heap
 * sizes and system properties ./exam up --native gives it (the chart's args replace them).
 */
final class NativeImage {
    private static final Pattern LABEL = Pattern.compile("^quarkus\\.container-image\\.labels\\.\"([a-z.]*)\"=(.*)$");
    private static final String PORTS = "quarkus.jib.ports=";

    private final Children children;
    private final Layers layers;
    private final RootFs rootFs;
    private final Path home;
    private final Path imagesDir;

    NativeImage(Children children, Layers layers, RootFs rootFs, Path home, Path imagesDir) {
        this.children = children;
        this.layers = layers;
        this.rootFs = rootFs;
        this.home = home;
        this.imagesDir = imagesDir;
    }

    /** Builds and pushes REPO:TAG-native from EXECUTABLE; its manifest digest. */
    String build(Registry registry, String service, Path executable, String nativeOpts, String repo, String tag,
            String revision, String created) {
        Path work = imagesDir.resolve("native").resolve(service);
        RootFs.remove(work);
        Path app = work.resolve("app");
        Path root = work.resolve("root");
        RootFs.mkdirs(app.resolve("app"));
        rootFs.create(root);
        rootFs.copyLibs(root, app, List.of(executable));
        Path installed = app.resolve("app/service");
        RootFs.copy(executable, installed);
        try {
            Files.setPosixFilePermissions(installed, PosixFilePermissions.fromString("rwxr-xr-x")); // install -m 755
        } catch (IOException e) {
            throw new Fail("cannot chmod " + installed + ": " + e.getMessage());
        }
        Path rootLayer = work.resolve("root.tar.gz");
        Path appLayer = work.resolve("app.tar.gz");
        layers.layer(root, rootLayer);
        layers.layer(app, appLayer);
        List<String> properties = lines(home.resolve(service).resolve("src/main/resources/application.properties"));
        Path config = work.resolve("config.json");
        RootFs.write(config, OciJson.config(config(properties, nativeOpts, tag, revision, created),
                Images.diffIds(rootLayer, appLayer), created));
        return registry.pushImage(repo, tag + "-native", config, List.of(rootLayer, appLayer));
    }

    /** The config object, from the service's application.properties (its labels and port) and its native flags. */
    static Map<String, Object> config(List<String> properties, String nativeOpts, String tag, String revision,
            String created) {
        Map<String, Object> labels = new LinkedHashMap<>();
        StringBuilder port = new StringBuilder();
        for (String line : properties) {
            Matcher m = LABEL.matcher(line);
            if (m.matches()) {
                labels.put(m.group(1), m.group(2).split("\t", -1)[0]);
            }
            if (line.startsWith(PORTS)) {
                port.append(port.length() > 0 ? "\n" : "").append(line.substring(PORTS.length()));
            }
        }
        labels.put("org.opencontainers.image.version", tag);
        labels.put("org.opencontainers.image.revision", revision);
        labels.put("org.opencontainers.image.created", created);
        // jq's += on a missing label: null + string is the string
        Object description = labels.get("org.opencontainers.image.description");
        labels.put("org.opencontainers.image.description", (description == null ? "" : description) + " Native executable.");
        // jq's split(" "): nothing for an empty string, an empty word between two blanks
        List<String> cmd = nativeOpts.isEmpty() ? List.of() : new ArrayList<>(Arrays.asList(nativeOpts.split(" ", -1)));
        return OciJson.object("User", "1001", "WorkingDir", "/tmp",
                "ExposedPorts", OciJson.object(port + "/tcp", OciJson.object()),
                "Env", List.of("LANG=C.UTF-8"), "Entrypoint", List.of("/app/service"), "Cmd", cmd,
                "Labels", labels);
    }

    private static List<String> lines(Path file) {
        try {
            return Files.readAllLines(file);
        } catch (IOException e) {
            throw new Fail("cannot read " + file + ": " + e.getMessage());
        }
    }
}
