package org.examsuite.common.auth;

import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.RSAPublicKeySpec;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jose4j.jwk.RsaJsonWebKey;

/**
 * The public keys that verify one kind of the suite's own tokens, each known by its key id: the RFC 7638 thumbprint
 * of the key, so a key id is never configured, only computed — by the signer from its private key
 * ({@link #keyId(PrivateKey)}) and by the verifier from each public key here. Two keys in one set are the rotation's
 * overlap window: tokens signed by either verify.
 * <p>
 * Written as one or more RSA public keys (X.509), each a PEM block or its bare base64 body, separated by whitespace
 * or commas — so the single key of an older configuration is a set of one, and a set fits one environment variable.
 */
public final class KeySet {
    private static final Pattern PEM_BLOCK = Pattern.compile("-----BEGIN PUBLIC KEY-----(.*?)-----END PUBLIC KEY-----",
            Pattern.DOTALL);

    private final Map<String, PublicKey> keys;

    private KeySet(Map<String, PublicKey> keys) {
        this.keys = Collections.unmodifiableMap(keys);
    }

    /** Parses the text form (above); blank is the empty set. A key that does not parse fails the whole set. */
    public static KeySet parse(String text) {
        Map<String, PublicKey> keys = new LinkedHashMap<>();
        for (String body : bodies(text == null ? "" : text)) {
            PublicKey key = Pem.publicKey(body);
            keys.put(keyId(key), key);
        }
        return new KeySet(keys);
    }

    private static List<String> bodies(String text) {
        List<String> bodies = new ArrayList<>();
        Matcher blocks = PEM_BLOCK.matcher(text);
        while (blocks.find()) {
            bodies.add(blocks.group(1).replaceAll("\\s", ""));
        }
        String rest = blocks.replaceAll(" ");
        if (rest.contains("-----")) {
            throw new IllegalStateException("a key set holds X.509 public keys (BEGIN PUBLIC KEY) only");
        }
        for (String token : rest.split("[\\s,]+")) {
            if (!token.isEmpty()) {
                bodies.add(token);
            }
        }
        return bodies;
    }

    /** The key with this id, or null. */
    public PublicKey key(String keyId) {
        return keyId == null ? null : keys.get(keyId);
    }

    /** The only key, or null when there are none or several (a token without a key id needs a set of one). */
    public PublicKey onlyKey() {
        return keys.size() == 1 ? keys.values().iterator().next() : null;
    }

    public List<String> keyIds() {
        return List.copyOf(keys.keySet());
    }

    public boolean isEmpty() {
        return keys.isEmpty();
    }

    /** The key id of an RSA public key: its RFC 7638 SHA-256 thumbprint, base64url. */
    public static String keyId(PublicKey key) {
        if (!(key instanceof RSAPublicKey rsa)) {
            throw new IllegalStateException("the suite's token keys are RSA");
        }
        return new RsaJsonWebKey(rsa).calculateBase64urlEncodedThumbprint("SHA-256");
    }

    /** The key id of the public half of an RSA private key (PKCS#8 keys carry the modulus and exponent). */
    public static String keyId(PrivateKey key) {
        if (!(key instanceof RSAPrivateCrtKey rsa)) {
            throw new IllegalStateException("the suite's token keys are RSA (PKCS#8 with CRT parameters)");
        }
        try {
            return keyId(KeyFactory.getInstance("RSA")
                    .generatePublic(new RSAPublicKeySpec(rsa.getModulus(), rsa.getPublicExponent())));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
