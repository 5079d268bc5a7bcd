package org.examsuite.tools.images;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.zip.GZIPInputStream;
import org.examsuite.tools.host.Fail;

/**
 * oci_layer and the digests: a layer is GNU tar's sorted, root-owned, mtime-0 POSIX archive of a
 * directory, gzip'ed without name or time (gzip -n -6). tar and gzip stay child processes: their
 * bytes are the digests every earlier push has, which a Java archiver would have to match bit for bit.
 */
final class Layers {
    static final List<String> TAR = List.of("tar", "--sort=name", "--owner=0", "--group=0", "--numeric-owner",
            "--mtime=@0", "--format=posix", "--pax-option=exthdr.name=%d/PaxHeaders/%f,delete=atime,delete=ctime");
    static final List<String> GZIP = List.of("gzip", "-n", "-6");

    private final Children children;

    Layers(Children children) {
        this.children = children;
    }

    /** oci_layer DIR OUT: DIR's contents at / as OUT (a .tar.gz). */
    void layer(Path dir, Path out) {
        List<String> tar = Children.concat(TAR, List.of("-C", dir.toString(), "-cf", "-", "."));
        int rc = children.pipeToFile(tar, GZIP, out);
        if (rc != 0) {
            throw new Fail("the layer of " + dir + " failed (tar | gzip exit " + rc + ")");
        }
    }

    /** oci_sha: FILE's SHA-256, hex. */
    static String sha256(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            return digest(in);
        } catch (IOException e) {
            throw new Fail("cannot read " + file + ": " + e.getMessage());
        }
    }

    /** The uncompressed digest of a layer (its diff_id in the config), hex. */
    static String diffId(Path layer) {
        try (InputStream in = new GZIPInputStream(Files.newInputStream(layer), 65536)) {
            return digest(in);
        } catch (IOException e) {
            throw new Fail("cannot read " + layer + ": " + e.getMessage());
        }
    }

    static String sha256(byte[] bytes) {
        return HexFormat.of().formatHex(sha().digest(bytes));
    }

    private static String digest(InputStream in) throws IOException {
        MessageDigest sha = sha();
        byte[] buffer = new byte[65536];
        for (int n; (n = in.read(buffer)) > 0;) {
            sha.update(buffer, 0, n);
        }
        return HexFormat.of().formatHex(sha.digest());
    }

    private static MessageDigest sha() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    static long size(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            throw new Fail("cannot read " + file + ": " + e.getMessage());
        }
    }
}
