package org.examsuite.grading.steps;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.X509EncodedKeySpec;
import java.util.Base64;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.examsuite.common.auth.Pem;
import org.examsuite.grading.archive.ChainHash;
import org.examsuite.grading.saga.StepFailure;

/**
 * Checks a paper as submission-service signed it (docs/ARCHITECTURE.md): {@code digest} is
 * hex SHA-256 of the RFC 8785 canonical JSON of the paper without {@code digest} and
 * {@code signature}; {@code signature} is base64, over the digest string, with
 * submission-service's paper key — Ed25519 or SHA256withRSA, as the configured public key's
 * type says (the signer picks the algorithm the same way). A row edited in its database fails
 * here. The key is read at first use, not at class init.
 */
@ApplicationScoped
public class PaperSignature {
    @ConfigProperty(name = "exam.paper.signing.public-key")
    String publicKeyPem;
    @Inject
    ObjectMapper mapper;

    private volatile PublicKey key;

    /** The verified paper; a permanent {@link StepFailure} when it does not verify. */
    public ObjectNode verify(String raw) {
        ObjectNode paper;
        try {
            JsonNode node = mapper.readTree(raw);
            if (!(node instanceof ObjectNode object)) {
                throw StepFailure.permanent("the paper is not a JSON object");
            }
            paper = object;
        } catch (JsonProcessingException e) {
            throw StepFailure.permanent("the paper is not JSON");
        }
        String digest = paper.path("digest").asText(null);
        String signature = paper.path("signature").asText(null);
        if (digest == null || signature == null) {
            throw StepFailure.permanent("the paper has no digest or signature");
        }
        ObjectNode unsigned = paper.deepCopy();
        unsigned.remove("digest");
        unsigned.remove("signature");
        String recomputed = ChainHash.sha256(ChainHash.canonical(unsigned.toString()));
        if (!recomputed.equals(digest)) {
            throw StepFailure.permanent("paper digest mismatch: the paper's content does not give its digest");
        }
        PublicKey verifyingKey = publicKey();
        try {
            Signature verifier = Signature.getInstance(signatureAlgorithm(verifyingKey));
            verifier.initVerify(verifyingKey);
            verifier.update(digest.getBytes(StandardCharsets.UTF_8));
            if (!verifier.verify(Base64.getDecoder().decode(signature))) {
                throw StepFailure.permanent("paper signature invalid");
            }
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            throw StepFailure.permanent("paper signature invalid: " + e.getClass().getSimpleName());
        }
        return paper;
    }

    private PublicKey publicKey() {
        PublicKey current = key;
        if (current == null) {
            current = publicKey(publicKeyPem);
            key = current;
        }
        return current;
    }

    /** An X.509 PEM public key, RSA or Ed25519 (headers and line breaks optional). */
    static PublicKey publicKey(String pem) {
        byte[] der;
        try {
            der = Base64.getDecoder().decode(Pem.body(pem));
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("the paper public key is not PEM", e);
        }
        for (String type : new String[] {"RSA", "Ed25519"}) {
            try {
                return KeyFactory.getInstance(type).generatePublic(new X509EncodedKeySpec(der));
            } catch (GeneralSecurityException e) {
                // not this type: try the next
            }
        }
        throw new IllegalStateException("the paper public key is neither an X.509 RSA nor an Ed25519 key");
    }

    static String signatureAlgorithm(Key key) {
        return switch (key.getAlgorithm()) {
            case "RSA" -> "SHA256withRSA";
            case "EdDSA", "Ed25519" -> "Ed25519";
            default -> throw new IllegalStateException("no paper signature for " + key.getAlgorithm() + " keys");
        };
    }
}
