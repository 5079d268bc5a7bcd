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
        return new PaperSignature(Pem.encodePublic(pair.getPublic()), mapper);
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
    void theEd25519VerifierAgreesWithTheJdksOnValidAndTamperedSignatures() throws Exception {
        java.util.Random random = new java.util.Random(5);
        for (int k = 0; k < 20; k++) {
            KeyPair pair = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
            var point = PaperSignature.ed25519Point(pair.getPublic());
            for (int m = 0; m < 10; m++) {
                byte[] bytes = new byte[32];
                random.nextBytes(bytes);
                String digest = java.util.HexFormat.of().formatHex(bytes);
                Signature signer = Signature.getInstance("Ed25519");
                signer.initSign(pair.getPrivate());
                signer.update(digest.getBytes(StandardCharsets.UTF_8));
                byte[] signed = signer.sign();
                PaperSignature.verifyEd25519(point, digest, Base64.getEncoder().encodeToString(signed));
                byte[] tampered = signed.clone();
                int bit = random.nextInt(tampered.length * 8);
                tampered[bit / 8] ^= (byte) (1 << (bit % 8));
                Signature jdk = Signature.getInstance("Ed25519");
                jdk.initVerify(pair.getPublic());
                jdk.update(digest.getBytes(StandardCharsets.UTF_8));
                boolean jdkAccepts;
                try {
                    jdkAccepts = jdk.verify(tampered);
                } catch (java.security.SignatureException e) {
                    jdkAccepts = false;
                }
                boolean accepted;
                try {
                    PaperSignature.verifyEd25519(point, digest, Base64.getEncoder().encodeToString(tampered));
                    accepted = true;
                } catch (StepFailure refused) {
                    accepted = false;
                }
                assertEquals(false, jdkAccepts, "bit " + bit);
                assertEquals(jdkAccepts, accepted, "bit " + bit);
                String otherDigest = digest.substring(1) + "0";
                assertThrows(StepFailure.class,
                        () -> PaperSignature.verifyEd25519(point, otherDigest, Base64.getEncoder().encodeToString(signed)));
            }
        }
    }

    @Test
    void rfc8032TestVector2Verifies() throws Exception {
        java.util.HexFormat hex = java.util.HexFormat.of();
        byte[] spki = hex.parseHex("302a300506032b6570032100" + "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c");
        var key = java.security.KeyFactory.getInstance("Ed25519").generatePublic(new java.security.spec.X509EncodedKeySpec(spki));
        String signature = Base64.getEncoder().encodeToString(hex.parseHex("92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da"
                + "085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00"));
        PaperSignature.verifyEd25519(PaperSignature.ed25519Point(key), "r", signature);
        assertThrows(StepFailure.class, () -> PaperSignature.verifyEd25519(PaperSignature.ed25519Point(key), "s", signature));
        assertThrows(StepFailure.class, () -> PaperSignature.verifyEd25519(PaperSignature.ed25519Point(key), "r", "AAAA"));
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
