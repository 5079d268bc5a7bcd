package org.examsuite.grading.steps;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.PublicKey;
import java.security.Signature;
import java.util.Base64;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.examsuite.common.auth.Pem;
import org.examsuite.grading.archive.ChainHash;
import org.examsuite.grading.saga.StepFailure;

/**
 * Checks a paper as submission-service signed it (docs/ARCHITECTURE.md): {@code digest} is
 * hex SHA-256 of the RFC 8785 canonical JSON of the paper without {@code digest} and
 * {@code signature}; {@code signature} is base64 SHA256withRSA over the digest string with
 * submission-service's paper key. A row edited in its database fails here.
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
        try {
            Signature rsa = Signature.getInstance("SHA256withRSA");
            rsa.initVerify(publicKey());
            rsa.update(digest.getBytes(StandardCharsets.UTF_8));
            if (!rsa.verify(Base64.getDecoder().decode(signature))) {
                throw StepFailure.permanent("paper signature invalid");
            }
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            throw StepFailure.permanent("paper signature invalid: " + e.getClass().getSimpleName());
        }
        return paper;
    }

    private PublicKey publicKey() {
        if (key == null) {
            key = Pem.publicKey(publicKeyPem);
        }
        return key;
    }
}
