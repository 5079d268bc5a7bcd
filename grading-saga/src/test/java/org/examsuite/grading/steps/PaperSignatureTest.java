package org.examsuite.grading.steps;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.Signature;
import java.util.Base64;
import org.examsuite.common.auth.Pem;
import org.examsuite.grading.archive.ChainHash;
import org.examsuite.grading.saga.StepFailure;
import org.junit.jupiter.api.Test;

/** Papers signed with an Ed25519 paper key and with an RSA one both verify, by the public key's type. */
class PaperSignatureTest {
    private final ObjectMapper mapper = new ObjectMapper();

    private PaperSignature verifier(KeyPair pair) {
        PaperSignature signature = new PaperSignature();
        signature.publicKeyPem = Pem.encodePublic(pair.getPublic());
        signature.mapper = mapper;
        return signature;
    }

    /** A paper as submission-service signs it: digest over the canonical JSON, signature over the digest. */
    private String signedPaper(PrivateKey key, String algorithm) throws Exception {
        ObjectNode paper = mapper.createObjectNode();
        paper.put("paperId", "p-1");
        paper.put("sessionId", "s-1");
        paper.put("examId", "e-1");
        paper.put("submittedBy", "CANDIDATE");
        paper.putObject("answers").putObject("q1").put("value", "b").put("version", 2).put("epoch", 1);
        String digest = ChainHash.sha256(ChainHash.canonical(paper.toString()));
        Signature signer = Signature.getInstance(algorithm);
        signer.initSign(key);
        signer.update(digest.getBytes(StandardCharsets.UTF_8));
        paper.put("digest", digest);
        paper.put("signature", Base64.getEncoder().encodeToString(signer.sign()));
        return paper.toString();
    }

    @Test
    void verifiesAnEd25519SignedPaper() throws Exception {
        KeyPair pair = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
        assertEquals("p-1", verifier(pair).verify(signedPaper(pair.getPrivate(), "Ed25519")).path("paperId").asText());
    }

    @Test
    void verifiesAnRsaSignedPaper() throws Exception {
        KeyPair pair = Pem.generateRsa();
        assertEquals("p-1", verifier(pair).verify(signedPaper(pair.getPrivate(), "SHA256withRSA")).path("paperId").asText());
    }

    @Test
    void refusesAForgedOrEditedPaper() throws Exception {
        KeyPair pair = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
        KeyPair other = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
        PaperSignature signature = verifier(pair);
        StepFailure forged = assertThrows(StepFailure.class,
                () -> signature.verify(signedPaper(other.getPrivate(), "Ed25519")));
        assertEquals("paper signature invalid", forged.getMessage());
        String edited = signedPaper(pair.getPrivate(), "Ed25519").replace("\"b\"", "\"c\"");
        assertThrows(StepFailure.class, () -> signature.verify(edited));
        // An RSA signature under an Ed25519 paper key is not accepted either.
        KeyPair rsa = Pem.generateRsa();
        assertThrows(StepFailure.class, () -> signature.verify(signedPaper(rsa.getPrivate(), "SHA256withRSA")));
    }
}
