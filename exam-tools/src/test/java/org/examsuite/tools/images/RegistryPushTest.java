package org.examsuite.tools.images;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.examsuite.tools.host.PidFiles;
import org.examsuite.tools.host.Procs;
import org.examsuite.tools.host.Workspace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A push to a real docker-registry (Debian's), started on loopback port 5099 and stopped again. */
class RegistryPushTest {
    static final String ADDRESS = "127.0.0.1:5099";

    @TempDir
    Path home;

    @Test
    void pushesAnImageTheRegistryServesBackByDigest() throws Exception {
        Workspace ws = new Workspace(home, System.getenv());
        Procs procs = new Procs(ws);
        assumeTrue(procs.has("docker-registry"), "docker-registry is not installed (apt-get install docker-registry)");
        Registry registry = new Registry(ADDRESS);
        assumeTrue(!registry.answers(), "something answers on " + ADDRESS + " already");
        LocalRegistry local = new LocalRegistry(ws, procs);
        try {
            local.ensure(registry);
            assertTrue(local.started());
            assertTrue(registry.answers());

            Children children = new Children(ws);
            Layers layers = new Layers(children);
            Path dir = Files.createDirectories(home.resolve("tree/etc"));
            Files.writeString(dir.resolve("hello"), "hello\n");
            Path layer = home.resolve("layer.tar.gz");
            layers.layer(home.resolve("tree"), layer);
            Path config = Files.createDirectories(home.resolve("image")).resolve("config.json");
            Files.writeString(config, OciJson.config(BaseImage.config("17.0.15"), Images.diffIds(layer), "2026-12-06T08:00:00Z"));

            String digest = registry.pushImage("examsuite/test", "1.0", config, List.of(layer));

            Path manifest = config.resolveSibling("manifest.json");
            assertEquals("sha256:" + Layers.sha256(manifest), digest);
            assertEquals(digest, registry.manifestDigest("examsuite/test", "1.0"));
            Object served = registry.manifest("examsuite/test", "1.0");
            assertEquals(Files.readString(manifest), Json.write(served));
            String layerDigest = (String) Json.at(((List<?>) Json.at(served, "layers")).get(0), "digest");
            assertArrayEquals(Files.readAllBytes(layer), registry.blob("examsuite/test", layerDigest));
            assertEquals(Files.readString(config), new String(registry.blob("examsuite/test",
                    (String) Json.at(served, "config", "digest")), StandardCharsets.UTF_8));
            // the same image again: the blobs are there, the manifest is the same
            assertEquals(digest, registry.pushImage("examsuite/test", "1.0", config, List.of(layer)));
            assertEquals("", registry.manifestDigest("examsuite/test", "no-such-tag"));

            nativeImageOfAnExecutable(ws, children, layers, registry);
        } finally {
            long pid = new PidFiles(ws).running(LocalRegistry.PID_NAME, LocalRegistry.MARKER).orElse(-1);
            local.stop();
            if (pid > 0) {
                ProcessHandle.of(pid).ifPresent(h -> h.onExit().join());
            }
        }
        assertFalse(registry.answers());
        assertFalse(Files.exists(new PidFiles(ws).file(LocalRegistry.PID_NAME)));
    }

    /** A native image's two layers and config, with a dynamically linked program of this machine as the executable. */
    private void nativeImageOfAnExecutable(Workspace ws, Children children, Layers layers, Registry registry) throws Exception {
        Path program = Path.of("/usr/bin/true");
        assumeTrue(Files.isExecutable(program));
        Path service = Files.createDirectories(home.resolve("demo-service/src/main/resources"));
        Files.writeString(service.resolve("application.properties"), "quarkus.jib.ports=8089\n"
                + "quarkus.container-image.labels.\"org.opencontainers.image.title\"=demo-service\n");
        NativeImage image = new NativeImage(children, layers, new RootFs(children), home, home.resolve(".exam/images"));

        String digest = image.build(registry, "demo-service", program, "-Xmx64m -Dx=y", "examsuite/demo-service", "1.0",
                "abc", "2026-12-06T08:00:00Z");

        assertEquals(digest, registry.manifestDigest("examsuite/demo-service", "1.0-native"));
        Object manifest = registry.manifest("examsuite/demo-service", "1.0-native");
        Object config = Json.parse(new String(registry.blob("examsuite/demo-service",
                (String) Json.at(manifest, "config", "digest")), StandardCharsets.UTF_8));
        assertEquals("1001", Json.at(config, "config", "User"));
        assertEquals(List.of("-Xmx64m", "-Dx=y"), Json.at(config, "config", "Cmd"));
        assertEquals("demo-service", Json.at(config, "config", "Labels", "org.opencontainers.image.title"));
        Path work = home.resolve(".exam/images/native/demo-service");
        String app = new Procs(ws).output(List.of("tar", "-tvzf", work.resolve("app.tar.gz").toString()));
        assertTrue(app.lines().anyMatch(l -> l.startsWith("-rwxr-xr-x") && l.endsWith(" ./app/service")), app);
        String root = new Procs(ws).output(List.of("tar", "-tzf", work.resolve("root.tar.gz").toString()));
        assertTrue(root.contains("./etc/passwd") && root.contains("libc.so.6") && root.contains("ld-linux"), root);
    }
}
