package org.examsuite.tools;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.examsuite.common.auth.Pem;
import org.examsuite.common.auth.Roles;

/**
 * The local suite's dev key pairs, one per purpose of docs/api.md §4 (and the paper and archive
 * signatures), generated at first use into {@code .exam/keys/} and never committed.
 * Files: {@code <name>.private.pem} (PKCS#8, owner-only) and {@code <name>.public.pem} (X.509).
 * Token keys are RSA (RS256); the paper key is Ed25519 for new installs (a paper is signed per
 * submission, and Ed25519 signs faster than RSA-2048); an existing RSA paper pair is kept —
 * submission-service and grading-saga take either, by the key's type.
 */
public final class DevKeys {
    /** candidate: session-service signs candidate tokens; operator: {@code ./exam token operator}; paper:
     *  submission-service signs papers; archive: the archive head; then each service's own key, named as the
     *  service, which signs its {@code /internal} calls. */
    public static final List<String> NAMES = Stream.concat(Stream.of("candidate", "operator", "paper", "archive"),
            Roles.SERVICES.stream()).toList();
    /** The pairs generated as Ed25519 rather than RSA. */
    static final List<String> ED25519 = List.of("paper");

    private final Path dir;

    public DevKeys(Path dir) {
        this.dir = dir;
    }

    /** Generates every pair that is missing or incomplete; keeps the others. Returns the names generated. */
    public List<String> ensure() throws IOException {
        Files.createDirectories(dir);
        List<String> generated = new ArrayList<>();
        for (String name : NAMES) {
            if (!isComplete(name)) {
                write(name, ED25519.contains(name) ? generateEd25519() : Pem.generateRsa());
                generated.add(name);
            }
        }
        return generated;
    }

    public Path privateFile(String name) {
        return dir.resolve(name + ".private.pem");
    }

    public Path publicFile(String name) {
        return dir.resolve(name + ".public.pem");
    }

    /** The pair's private key: RSA or Ed25519. */
    public PrivateKey privateKey(String name) throws IOException {
        return Pem.rsaOrEd25519PrivateKey(Files.readString(privateFile(name), StandardCharsets.US_ASCII),
                privateFile(name).toString());
    }

    /** The pair's public key: RSA or Ed25519. */
    public PublicKey publicKey(String name) throws IOException {
        return Pem.rsaOrEd25519PublicKey(Files.readString(publicFile(name), StandardCharsets.US_ASCII),
                publicFile(name).toString());
    }

    public static KeyPair generateEd25519() {
        try {
            return KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private boolean isComplete(String name) {
        // A pair whose halves do not parse (an interrupted write, a hand edit) is regenerated whole,
        // so the two halves always belong together.
        try {
            return privateKey(name).getAlgorithm().equals(publicKey(name).getAlgorithm());
        } catch (IOException | IllegalStateException e) {
            return false;
        }
    }

    private void write(String name, KeyPair pair) throws IOException {
        writeAtomically(privateFile(name), Pem.encodePrivate(pair.getPrivate()), true);
        writeAtomically(publicFile(name), Pem.encodePublic(pair.getPublic()), false);
    }

    private void writeAtomically(Path target, String text, boolean secret) throws IOException {
        Path temp = Files.createTempFile(dir, "." + target.getFileName(), ".tmp");
        try {
            setPermissions(temp, secret ? "rw-------" : "rw-r--r--");
            Files.writeString(temp, text, StandardCharsets.US_ASCII);
            try {
                Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(temp);
        }
    }

    private static void setPermissions(Path file, String permissions) throws IOException {
        try {
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(permissions));
        } catch (UnsupportedOperationException e) {
            // not a POSIX file system (Windows): nothing finer to set here
        }
    }
}
