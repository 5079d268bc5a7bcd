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
}
