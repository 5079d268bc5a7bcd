package org.examsuite.grading.archive;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.Signature;
import java.util.Base64;
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

    private volatile PrivateKey key;
    private volatile String cachedFor;
    private volatile String cachedSignature;

    public static String signedText(long seq, String hash) {
        return seq + ":" + hash;
    }

    public String sign(long seq, String hash) {
        String text = signedText(seq, hash);
        if (text.equals(cachedFor)) {
            return cachedSignature;
        }
        try {
            if (key == null) {
                key = Pem.privateKey(privateKeyPem);
            }
            Signature rsa = Signature.getInstance("SHA256withRSA");
            rsa.initSign(key);
            rsa.update(text.getBytes(StandardCharsets.UTF_8));
            String signature = Base64.getEncoder().encodeToString(rsa.sign());
            cachedSignature = signature;
            cachedFor = text;
            return signature;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("could not sign the archive head", e);
        }
    }
}
