package org.examsuite.submission.paper;

import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.Signature;
import java.util.Base64;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.examsuite.common.auth.Pem;

/**
 * Digest and signature of a paper (docs/ARCHITECTURE.md): {@code digest} = lowercase hex
 * SHA-256 of the canonical document; {@code signature} = base64 RSASSA-PKCS1-v1_5 SHA-256 over
 * the UTF-8 bytes of the digest, with submission-service's own paper key
 * ({@code EXAM_PAPER_PRIVATE_KEY}), which no other service holds.
 */
@ApplicationScoped
public class PaperSigner {
    @ConfigProperty(name = "exam.paper.signing.private-key")
    String privateKeyPem;

    private volatile PrivateKey key;

    public String digest(String canonicalDocument) {
        return Canonical.sha256Hex(canonicalDocument);
    }

    public String sign(String digest) {
        try {
            Signature rsa = Signature.getInstance("SHA256withRSA");
            rsa.initSign(key());
            rsa.update(digest.getBytes(StandardCharsets.UTF_8));
            return Base64.getEncoder().encodeToString(rsa.sign());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("could not sign a paper", e);
        }
    }

    private PrivateKey key() {
        PrivateKey current = key;
        if (current == null) {
            current = Pem.privateKey(privateKeyPem);
            key = current;
        }
        return current;
    }
}
