package org.examsuite.common.auth;

import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Base64;

/**
 * Keys as PEM text (PKCS#8 private, X.509 public): RSA for tokens and the archive, RSA or Ed25519 for
 * papers. The one parser of the suite, so every service reads a key the same way. Keys arrive through configuration
 * (environment variables fed from files or Kubernetes Secrets); headers and line breaks are
 * optional so that a key fits in one environment variable.
 */
public final class Pem {
    private Pem() {
    }

    public static PrivateKey privateKey(String pem) {
        try {
            return KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(der(pem)));
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            throw new IllegalStateException("not a PKCS#8 RSA private key", e);
        }
    }

    public static PublicKey publicKey(String pem) {
        try {
            return KeyFactory.getInstance("RSA").generatePublic(new X509EncodedKeySpec(der(pem)));
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            throw new IllegalStateException("not an X.509 RSA public key", e);
        }
    }

    /**
     * A PKCS#8 private key, RSA or Ed25519, its type read from the key (keys can move from RSA to Ed25519
     * without a flag). {@code what} names it in the error, e.g. "the paper key".
     */
    public static PrivateKey rsaOrEd25519PrivateKey(String pem, String what) {
        byte[] der = der(pem, what);
        for (String type : KEY_TYPES) {
            try {
                return KeyFactory.getInstance(type).generatePrivate(new PKCS8EncodedKeySpec(der));
            } catch (GeneralSecurityException e) {
                // not this type: try the next
            }
        }
        throw new IllegalStateException(what + " is neither a PKCS#8 RSA nor an Ed25519 private key");
    }

    /** An X.509 public key, RSA or Ed25519, its type read from the key; {@code what} names it in the error. */
    public static PublicKey rsaOrEd25519PublicKey(String pem, String what) {
        byte[] der = der(pem, what);
        for (String type : KEY_TYPES) {
            try {
                return KeyFactory.getInstance(type).generatePublic(new X509EncodedKeySpec(der));
            } catch (GeneralSecurityException e) {
                // not this type: try the next
            }
        }
        throw new IllegalStateException(what + " is neither an X.509 RSA nor an Ed25519 key");
    }

    private static final String[] KEY_TYPES = {"RSA", "Ed25519"};

    public static KeyPair generateRsa() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            return generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    public static String encodePrivate(PrivateKey key) {
        return wrap("PRIVATE KEY", key.getEncoded());
    }

    public static String encodePublic(PublicKey key) {
        return wrap("PUBLIC KEY", key.getEncoded());
    }

    /** The base64 body alone, as {@code quarkus.oidc.<tenant>.public-key} wants it. */
    public static String body(String pem) {
        return pem.replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
    }

    private static byte[] der(String pem) {
        return Base64.getDecoder().decode(body(pem));
    }

    private static byte[] der(String pem, String what) {
        try {
            return der(pem);
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException(what + " is not PEM", e);
        }
    }

    private static String wrap(String type, byte[] der) {
        String base64 = Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(der);
        return "-----BEGIN " + type + "-----\n" + base64 + "\n-----END " + type + "-----\n";
    }
}
