package org.examsuite.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.Signature;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DevKeysTest {
    @TempDir
    Path dir;

    @Test
    void generatesEveryPairAtFirstUse() throws Exception {
        DevKeys keys = new DevKeys(dir.resolve("keys"));

        assertEquals(List.of("candidate", "operator", "service", "paper", "archive"), keys.ensure());

        for (String name : DevKeys.NAMES) {
            assertTrue(Files.readString(keys.privateFile(name)).startsWith("-----BEGIN PRIVATE KEY-----"));
            assertTrue(Files.readString(keys.publicFile(name)).startsWith("-----BEGIN PUBLIC KEY-----"));
            assertTrue(halvesBelongTogether(keys, name), name);
        }
    }

    @Test
    void privateKeysAreReadableByTheOwnerOnly() throws Exception {
        DevKeys keys = new DevKeys(dir);
        keys.ensure();

        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(keys.privateFile("service"))));
        assertEquals("rw-r--r--", PosixFilePermissions.toString(Files.getPosixFilePermissions(keys.publicFile("service"))));
    }

    @Test
    void keepsExistingKeys() throws Exception {
        DevKeys keys = new DevKeys(dir);
        keys.ensure();
        String before = Files.readString(keys.privateFile("operator"));

        assertEquals(List.of(), keys.ensure());
        assertEquals(before, Files.readString(keys.privateFile("operator")));
    }

    @Test
    void regeneratesABrokenPairWhole() throws Exception {
        DevKeys keys = new DevKeys(dir);
        keys.ensure();
        String otherBefore = Files.readString(keys.privateFile("candidate"));
        Files.writeString(keys.publicFile("paper"), "truncated", StandardCharsets.US_ASCII);

        assertEquals(List.of("paper"), keys.ensure());
        assertTrue(halvesBelongTogether(keys, "paper"));
        assertEquals(otherBefore, Files.readString(keys.privateFile("candidate")));
    }

    @Test
    void leavesNoTemporaryFiles() throws Exception {
        new DevKeys(dir).ensure();

        try (var files = Files.list(dir)) {
            assertEquals(10, files.filter(f -> f.toString().endsWith(".pem")).count());
        }
        try (var files = Files.list(dir)) {
            assertEquals(0, files.filter(f -> f.toString().endsWith(".tmp")).count());
        }
    }

    static boolean halvesBelongTogether(DevKeys keys, String name) throws Exception {
        byte[] message = "exam".getBytes(StandardCharsets.UTF_8);
        Signature signer = Signature.getInstance("SHA256withRSA");
        signer.initSign(keys.privateKey(name));
        signer.update(message);
        byte[] signature = signer.sign();
        Signature verifier = Signature.getInstance("SHA256withRSA");
        verifier.initVerify(keys.publicKey(name));
        verifier.update(message);
        return verifier.verify(signature);
    }
}
