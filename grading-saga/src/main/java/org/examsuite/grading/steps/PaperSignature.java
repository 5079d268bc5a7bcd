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
import java.security.PublicKey;
import java.security.Signature;
import java.util.Base64;
import java.util.Set;
import org.bouncycastle.math.ec.rfc8032.Ed25519;
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
    private final String publicKeyPem;
    private final ObjectMapper mapper;

    @Inject
    PaperSignature(StepsConfig config, ObjectMapper mapper) {
        this(config.paper().signing().publicKey(), mapper);
    }

    PaperSignature(String publicKeyPem, ObjectMapper mapper) {
        this.publicKeyPem = publicKeyPem;
        this.mapper = mapper;
    }

    private volatile PublicKey key;
    /** The Ed25519 key's point, decoded and checked once (BouncyCastle's verifier); null for an RSA key. */
    private volatile Ed25519.PublicPoint edPoint;

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
        Ed25519.PublicPoint point = edPoint;
        if (point != null) {
            verifyEd25519(point, digest, signature);
            return paper;
        }
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

    /**
     * Ed25519 (RFC 8032, pure) with BouncyCastle's verifier: JDK 17's takes ~5x the CPU (its
     * constant-time ladder, right for signing, is not needed to check a public signature), and
     * it was half of this service's CPU per paper. Same rule as the JDK's: the signature is
     * 64 bytes, S below the group order, and [S]B = R + [k]A.
     */
    static void verifyEd25519(Ed25519.PublicPoint point, String digest, String signature) {
        byte[] bytes;
        try {
            bytes = Base64.getDecoder().decode(signature);
        } catch (IllegalArgumentException e) {
            throw StepFailure.permanent("paper signature invalid: " + e.getClass().getSimpleName());
        }
        byte[] message = digest.getBytes(StandardCharsets.UTF_8);
        if (bytes.length != Ed25519.SIGNATURE_SIZE || !Ed25519.verify(bytes, 0, point, message, 0, message.length)) {
            throw StepFailure.permanent("paper signature invalid");
        }
    }

    /** The raw 32-byte Ed25519 key of an X.509 SubjectPublicKeyInfo (RFC 8410), decoded and checked; null if it is none. */
    static Ed25519.PublicPoint ed25519Point(PublicKey key) {
        if (!"EdDSA".equals(key.getAlgorithm()) && !"Ed25519".equals(key.getAlgorithm())) {
            return null;
        }
        byte[] spki = key.getEncoded();
        if (spki.length != ED25519_SPKI_PREFIX.length + Ed25519.PUBLIC_KEY_SIZE
                || !java.util.Arrays.equals(spki, 0, ED25519_SPKI_PREFIX.length, ED25519_SPKI_PREFIX, 0, ED25519_SPKI_PREFIX.length)) {
            throw new IllegalStateException("the paper public key is not an Ed25519 key in X.509 form");
        }
        Ed25519.PublicPoint point = Ed25519.validatePublicKeyFullExport(spki, ED25519_SPKI_PREFIX.length);
        if (point == null) {
            throw new IllegalStateException("the paper public key is not a valid Ed25519 point");
        }
        return point;
    }

    /** SEQUENCE { SEQUENCE { OID 1.3.101.112 } BIT STRING (32 bytes) }: RFC 8410's fixed prefix. */
    private static final byte[] ED25519_SPKI_PREFIX = {0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00};

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
            edPoint = ed25519Point(current); // before the key: whoever sees the key sees its point
            key = current;
        }
        return current;
    }

    /** An X.509 PEM public key, RSA or Ed25519 (headers and line breaks optional). */
    static PublicKey publicKey(String pem) {
        return Pem.rsaOrEd25519PublicKey(pem, "the paper public key");
    }

    static String signatureAlgorithm(Key key) {
        return switch (key.getAlgorithm()) {
            case "RSA" -> "SHA256withRSA";
            case "EdDSA", "Ed25519" -> "Ed25519";
            default -> throw new IllegalStateException("no paper signature for " + key.getAlgorithm() + " keys");
        };
    }
}
