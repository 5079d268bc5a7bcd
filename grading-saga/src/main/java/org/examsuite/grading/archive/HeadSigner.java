package org.examsuite.grading.archive;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.Signature;
import java.util.Base64;
import org.examsuite.common.auth.KeySet;
import org.examsuite.common.auth.Pem;

/**
 * Signs the archive head so it can be anchored outside the database (a copy kept
 * elsewhere proves later that the chain up to it was not rewritten). Signed on request,
 * not per append, and cached per head: appends stay cheap.
 * Signature: base64 RSASSA-PKCS1-v1_5 SHA-256 over the UTF-8 bytes of {@code "<seq>:<hash>"}.
 */
@ApplicationScoped
public class HeadSigner {
    private final String privateKeyPem;

    @Inject
    HeadSigner(ArchiveConfig config) {
        this.privateKeyPem = config.signing().privateKey();
    }

    /** A head's signed text and its signature: cached as one value, so they always belong together. */
    private record Signed(String text, String signature) {
    }

    private volatile PrivateKey key;
    private volatile String keyId;
    /**
     * The last head signed. One immutable pair in one volatile: with the text and the signature
     * in two, a call could read one head's text beside the signature another thread had just
     * written for the next head, and hand out a signature that does not verify (HeadSignerTest).
     * Calls for different heads may replace each other's entry; that costs a signature, never a
     * wrong one.
     */
    private volatile Signed cached;

    public static String signedText(long seq, String hash) {
        return seq + ":" + hash;
    }

    /** The signing key's id (its thumbprint, {@link KeySet#keyId}): which key of the archive's key set verifies. */
    public String keyId() {
        signingKey();
        return keyId;
    }

    private PrivateKey signingKey() {
        PrivateKey signingKey = key;
        if (signingKey == null) {
            signingKey = Pem.privateKey(privateKeyPem);
            keyId = KeySet.keyId(signingKey);
            key = signingKey;
        }
        return signingKey;
    }

    public String sign(long seq, String hash) {
        String text = signedText(seq, hash);
        Signed last = cached;
        if (last != null && last.text().equals(text)) {
            return last.signature();
        }
        try {
            PrivateKey signingKey = signingKey();
            Signature rsa = Signature.getInstance("SHA256withRSA");
            rsa.initSign(signingKey);
            rsa.update(text.getBytes(StandardCharsets.UTF_8));
            String signature = Base64.getEncoder().encodeToString(rsa.sign());
            cached = new Signed(text, signature);
            return signature;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("could not sign the archive head", e);
        }
    }
}
