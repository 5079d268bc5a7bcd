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

        assertEquals(List.of("candidate", "operator", "paper", "archive", "session-service", "answer-service",
                "submission-service", "grading-saga"), keys.ensure());

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

        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(keys.privateFile("answer-service"))));
        assertEquals("rw-r--r--", PosixFilePermissions.toString(Files.getPosixFilePermissions(keys.publicFile("answer-service"))));
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
            assertEquals(2 * DevKeys.NAMES.size(), files.filter(f -> f.toString().endsWith(".pem")).count());
        }
        try (var files = Files.list(dir)) {
            assertEquals(0, files.filter(f -> f.toString().endsWith(".tmp")).count());
        }
    }

    @Test
    void thePaperKeyIsEd25519AndTheTokenKeysRsa() throws Exception {
        DevKeys keys = new DevKeys(dir);
        keys.ensure();

        assertEquals("EdDSA", keys.privateKey("paper").getAlgorithm());
        assertEquals("EdDSA", keys.publicKey("paper").getAlgorithm());
        for (String name : List.of("candidate", "operator", "archive", "session-service", "grading-saga")) {
            assertEquals("RSA", keys.privateKey(name).getAlgorithm(), name);
        }
    }

    @Test
    void keepsAnExistingRsaPaperKey() throws Exception {
        DevKeys keys = new DevKeys(dir);
        keys.ensure();
        java.security.KeyPair rsa = org.examsuite.common.auth.Pem.generateRsa();
        Files.writeString(keys.privateFile("paper"), org.examsuite.common.auth.Pem.encodePrivate(rsa.getPrivate()));
        Files.writeString(keys.publicFile("paper"), org.examsuite.common.auth.Pem.encodePublic(rsa.getPublic()));

        assertEquals(List.of(), keys.ensure());
        assertEquals("RSA", keys.privateKey("paper").getAlgorithm());
    }

    static boolean halvesBelongTogether(DevKeys keys, String name) throws Exception {
        byte[] message = "exam".getBytes(StandardCharsets.UTF_8);
        String algorithm = keys.privateKey(name).getAlgorithm().equals("RSA") ? "SHA256withRSA" : "Ed25519";
        Signature signer = Signature.getInstance(algorithm);
        signer.initSign(keys.privateKey(name));
        signer.update(message);
        byte[] signature = signer.sign();
        Signature verifier = Signature.getInstance(algorithm);
        verifier.initVerify(keys.publicKey(name));
        verifier.update(message);
        return verifier.verify(signature);
    }
}
