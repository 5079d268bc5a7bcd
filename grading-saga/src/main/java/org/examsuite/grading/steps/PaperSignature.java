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
import java.util.Set;
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

    private static final Set<String> UNSIGNED = Set.of("digest", "signature");

    /** One verifier per thread for the current key: a verify leaves it ready for the next. */
    private final ThreadLocal<Verifier> verifiers = new ThreadLocal<>();

    private record Verifier(PublicKey key, Signature signature) {
    }

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
        return verify(paper);
    }

    /**
     * {@link #verify(String)} of a paper already parsed (the grade step's): not parsed again,
     * and not changed. The digest's canonical JSON is written straight from the tree
     * ({@link ChainHash#canonical(com.fasterxml.jackson.databind.JsonNode, Set)}).
     */
    public ObjectNode verify(ObjectNode paper) {
        String digest = paper.path("digest").asText(null);
        String signature = paper.path("signature").asText(null);
        if (digest == null || signature == null) {
            throw StepFailure.permanent("the paper has no digest or signature");
        }
        String recomputed = ChainHash.sha256(ChainHash.canonical(paper, UNSIGNED));
        if (!recomputed.equals(digest)) {
            throw StepFailure.permanent("paper digest mismatch: the paper's content does not give its digest");
        }
        PublicKey verifyingKey = publicKey();
        boolean valid;
        try {
            byte[] bytes = Base64.getDecoder().decode(signature);
            Signature verifier = verifier(verifyingKey);
            verifier.update(digest.getBytes(StandardCharsets.UTF_8));
            valid = verifier.verify(bytes);
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            verifiers.remove(); // its state after a failure is not specified: a fresh one next time
            throw StepFailure.permanent("paper signature invalid: " + e.getClass().getSimpleName());
        }
        if (!valid) {
            throw StepFailure.permanent("paper signature invalid");
        }
        return paper;
    }

    private Signature verifier(PublicKey verifyingKey) throws GeneralSecurityException {
        Verifier current = verifiers.get();
        if (current == null || current.key() != verifyingKey) {
            Signature fresh = Signature.getInstance(signatureAlgorithm(verifyingKey));
            fresh.initVerify(verifyingKey);
            current = new Verifier(verifyingKey, fresh);
            verifiers.set(current);
        }
        return current.signature();
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
