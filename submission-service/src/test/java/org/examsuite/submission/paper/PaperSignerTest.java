package org.examsuite.submission.paper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PublicKey;
import java.security.Signature;
import java.util.Base64;
import org.examsuite.common.auth.Pem;
import org.junit.jupiter.api.Test;

/** The paper signature follows the key's type: Ed25519 keys sign Ed25519, RSA keys SHA256withRSA. */
class PaperSignerTest {

    private static boolean verifies(String algorithm, PublicKey key, String digest, String signature) throws Exception {
        Signature verifier = Signature.getInstance(algorithm);
        verifier.initVerify(key);
        verifier.update(digest.getBytes(StandardCharsets.UTF_8));
        return verifier.verify(Base64.getDecoder().decode(signature));
    }

    private static PaperSigner signer(KeyPair pair) {
        return new PaperSigner(Pem.encodePrivate(pair.getPrivate()), 0);
    }

    @Test
    void anEd25519KeySignsEd25519() throws Exception {
        KeyPair pair = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
        PaperSigner signer = signer(pair);
        String digest = signer.digest("{\"paperId\":\"p-1\"}");

        String signature = signer.sign(digest);

        assertEquals("Ed25519", signer.algorithm());
        assertEquals(64, Base64.getDecoder().decode(signature).length);
        assertTrue(verifies("Ed25519", pair.getPublic(), digest, signature));
        assertFalse(verifies("Ed25519", pair.getPublic(), digest.replace('a', 'b'), signature));
    }

    @Test
    void ed25519SignaturesAreTheJdksOwn() throws Exception {
        // Ed25519 is deterministic: BouncyCastle's signer must give exactly the JDK's signature.
        for (int i = 0; i < 50; i++) {
            KeyPair pair = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
            PaperSigner signer = signer(pair);
            String digest = signer.digest("{\"paperId\":\"p-" + i + "\"}");
            Signature jdk = Signature.getInstance("Ed25519");
            jdk.initSign(pair.getPrivate());
            jdk.update(digest.getBytes(StandardCharsets.UTF_8));
            assertEquals(Base64.getEncoder().encodeToString(jdk.sign()), signer.sign(digest));
        }
    }

    @Test
    void anRsaKeyStillSignsSha256WithRsa() throws Exception {
        KeyPair pair = Pem.generateRsa();
        PaperSigner signer = signer(pair);
        String digest = signer.digest("{\"paperId\":\"p-2\"}");

        assertEquals("SHA256withRSA", signer.algorithm());
        assertTrue(verifies("SHA256withRSA", pair.getPublic(), digest, signer.sign(digest)));
    }

    @Test
    void aKeyOfAnotherKindIsRefused() throws Exception {
        KeyPair ec = KeyPairGenerator.getInstance("EC").generateKeyPair();
        PaperSigner signer = signer(ec);
        assertThrows(IllegalStateException.class, () -> signer.sign("00"));
        PaperSigner garbage = new PaperSigner("not a key", 0);
        assertThrows(IllegalStateException.class, () -> garbage.sign("00"));
    }
}
