package org.examsuite.common.auth;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.security.KeyPair;
import java.security.KeyPairGenerator;
import org.junit.jupiter.api.Test;

/** The suite's one key parser: RSA and Ed25519, each read by its own type, and errors that name the key. */
class PemTest {
    @Test
    void rsaAndEd25519KeysReadBackAsTheirOwnType() throws Exception {
        KeyPair rsa = Pem.generateRsa();
        KeyPair ed = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();

        assertEquals("RSA", Pem.rsaOrEd25519PrivateKey(Pem.encodePrivate(rsa.getPrivate()), "k").getAlgorithm());
        assertEquals("RSA", Pem.rsaOrEd25519PublicKey(Pem.encodePublic(rsa.getPublic()), "k").getAlgorithm());
        assertArrayEquals(ed.getPrivate().getEncoded(),
                Pem.rsaOrEd25519PrivateKey(Pem.encodePrivate(ed.getPrivate()), "k").getEncoded());
        // headers and line breaks are optional, so a key fits in one environment variable
        assertArrayEquals(ed.getPublic().getEncoded(),
                Pem.rsaOrEd25519PublicKey(Pem.body(Pem.encodePublic(ed.getPublic())), "k").getEncoded());
        assertArrayEquals(rsa.getPrivate().getEncoded(), Pem.privateKey(Pem.encodePrivate(rsa.getPrivate())).getEncoded());
    }

    @Test
    void errorsNameTheKey() {
        assertEquals("the paper key is not PEM",
                assertThrows(IllegalStateException.class, () -> Pem.rsaOrEd25519PrivateKey("not a key!", "the paper key"))
                        .getMessage());
        String publicPem = Pem.encodePublic(Pem.generateRsa().getPublic());
        assertEquals("the paper key is neither a PKCS#8 RSA nor an Ed25519 private key",
                assertThrows(IllegalStateException.class, () -> Pem.rsaOrEd25519PrivateKey(publicPem, "the paper key"))
                        .getMessage());
        assertEquals("the paper public key is neither an X.509 RSA nor an Ed25519 key",
                assertThrows(IllegalStateException.class,
                        () -> Pem.rsaOrEd25519PublicKey(Pem.encodePrivate(Pem.generateRsa().getPrivate()),
                                "the paper public key")).getMessage());
    }
}
