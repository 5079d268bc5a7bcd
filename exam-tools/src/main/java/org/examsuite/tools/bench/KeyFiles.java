package org.examsuite.tools.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import org.examsuite.common.auth.Pem;
import org.examsuite.tools.DevKeys;
import org.examsuite.tools.host.Fail;

/**
 * A bench's throw-away key pairs, DIR/KIND.key (PKCS#8) and DIR/KIND.pub (X.509), as openssl made
 * them for lib.sh: RSA-2048 for tokens and the archive, Ed25519 for the paper key by default. The
 * JDK drivers (Seed.java, Storm.java, ...) read these files.
 */
final class KeyFiles {
    private final Path dir;

    KeyFiles(Path dir) {
        this.dir = dir;
    }

    void rsa(String... kinds) {
        for (String kind : kinds) {
            write(kind, Pem.generateRsa());
        }
    }

    void ed25519(String kind) {
        write(kind, DevKeys.generateEd25519());
    }

    Path privateFile(String kind) {
        return dir.resolve(kind + ".key");
    }

    /** KIND's private key as the services take it (EXAM_*_PRIVATE_KEY): the whole PEM ($(cat): no last line end). */
    String privatePem(String kind) {
        return read(privateFile(kind));
    }

    String publicPem(String kind) {
        return read(dir.resolve(kind + ".pub"));
    }

    /** lib.sh's pub: KIND's public key without its header lines, on one line. */
    String publicLine(String kind) {
        return oneLine(publicPem(kind));
    }

    String privateLine(String kind) {
        return oneLine(privatePem(kind));
    }

    static String oneLine(String pem) {
        return pem.lines().filter(l -> !l.contains("-----")).reduce("", String::concat);
    }

    private void write(String kind, KeyPair pair) {
        try {
            Files.writeString(privateFile(kind), Pem.encodePrivate(pair.getPrivate()), StandardCharsets.US_ASCII);
            Files.writeString(dir.resolve(kind + ".pub"), Pem.encodePublic(pair.getPublic()), StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new Fail("cannot write the " + kind + " key pair in " + dir + ": " + e.getMessage());
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.US_ASCII).stripTrailing();
        } catch (IOException e) {
            throw new Fail("cannot read " + file + ": " + e.getMessage());
        }
    }
}
