package org.examsuite.tools.images;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.examsuite.tools.host.Procs;
import org.examsuite.tools.host.Workspace;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LayersTest {
    @TempDir
    Path tmp;

    private final Workspace ws = new Workspace(Path.of("."), System.getenv());
    private final Layers layers = new Layers(new Children(ws));

    @Test
    void theSameDirectoryGivesTheSameDigestTwice() throws Exception {
        Path dir = tree(tmp.resolve("d"), List.of("b/z", "sub/a.txt", "top"));
        layers.layer(dir, tmp.resolve("one.tar.gz"));
        layers.layer(dir, tmp.resolve("two.tar.gz"));

        assertArrayEquals(Files.readAllBytes(tmp.resolve("one.tar.gz")), Files.readAllBytes(tmp.resolve("two.tar.gz")));
        assertEquals(Layers.sha256(tmp.resolve("one.tar.gz")), Layers.sha256(tmp.resolve("two.tar.gz")));
    }

    @Test
    void creationOrderAndTimesDoNotChangeTheDigest() throws Exception {
        Path first = tree(tmp.resolve("first"), List.of("b/z", "sub/a.txt", "top"));
        Path second = tree(tmp.resolve("second"), List.of("top", "sub/a.txt", "b/z"));
        Files.setLastModifiedTime(second.resolve("top"), FileTime.fromMillis(1_000_000_000_000L));
        layers.layer(first, tmp.resolve("first.tar.gz"));
        layers.layer(second, tmp.resolve("second.tar.gz"));

        assertEquals(Layers.sha256(tmp.resolve("first.tar.gz")), Layers.sha256(tmp.resolve("second.tar.gz")));
        assertEquals(Layers.diffId(tmp.resolve("first.tar.gz")), Layers.diffId(tmp.resolve("second.tar.gz")));
    }

    @Test
    void entriesAreSortedRootOwnedAndOfTimeZeroInAGzipWithoutNameOrTime() throws Exception {
        Path dir = tree(tmp.resolve("d"), List.of("top", "b/z", "sub/a.txt"));
        Path layer = tmp.resolve("layer.tar.gz");
        layers.layer(dir, layer);

        byte[] gz = Files.readAllBytes(layer);
        assertEquals(0, gz[3], "gzip flags: no file name (gzip -n)");
        assertArrayEquals(new byte[4], Arrays.copyOfRange(gz, 4, 8), "gzip mtime 0 (gzip -n)");
        String listing = new Procs(ws).output(List.of("tar", "--numeric-owner", "--full-time", "-tvzf", layer.toString()));
        List<String> names = listing.lines().map(line -> line.substring(line.lastIndexOf(' ') + 1)).toList();
        assertEquals(List.of("./", "./b/", "./b/z", "./sub/", "./sub/a.txt", "./top"), names);
        listing.lines().forEach(line -> {
            assertTrue(line.contains(" 0/0 "), line);
            assertTrue(line.contains(" 1970-01-01 00:00:00 "), line);
        });
    }

    @Test
    void theDiffIdIsTheDigestOfTheUncompressedArchive() throws Exception {
        Path dir = tree(tmp.resolve("d"), List.of("top"));
        Path layer = tmp.resolve("layer.tar.gz");
        layers.layer(dir, layer);
        String tarSha = new Procs(ws).output(List.of("sh", "-c", "gzip -dc \"$0\" | sha256sum", layer.toString()));

        assertEquals(tarSha.substring(0, 64), Layers.diffId(layer));
        assertEquals(new Procs(ws).output(List.of("sha256sum", layer.toString())).substring(0, 64), Layers.sha256(layer));
    }

    private static Path tree(Path dir, List<String> files) throws Exception {
        for (String file : files) {
            Path path = dir.resolve(file);
            Files.createDirectories(path.getParent());
            Files.writeString(path, "content of " + file + "\n");
        }
        return dir;
    }
}
