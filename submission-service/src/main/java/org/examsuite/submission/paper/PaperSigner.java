package org.examsuite.submission.paper;

import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.interfaces.EdECPrivateKey;
import java.util.Base64;
import org.bouncycastle.crypto.params.Ed25519PrivateKeyParameters;
import org.bouncycastle.crypto.signers.Ed25519Signer;
import org.examsuite.common.auth.Pem;
import org.jboss.logging.Logger;

/**
 * Digest and signature of a paper (docs/ARCHITECTURE.md): {@code digest} = lowercase hex
 * SHA-256 of the canonical document; {@code signature} = base64 signature over the UTF-8 bytes
 * of the digest, with submission-service's own paper key ({@code EXAM_PAPER_PRIVATE_KEY}),
 * which no other service holds. The algorithm is the one the key's type implies: an Ed25519
 * key (what {@code ./exam} generates) signs Ed25519, an RSA key SHA256withRSA
 * (RSASSA-PKCS1-v1_5) — so keys can move from RSA to Ed25519 without a flag day; grading-saga
 * verifies either by its public key's type. The key is read at first use, not at class init.
 * <p>
 * Ed25519 signs with BouncyCastle's signer, not JDK 17's: the JDK's is generic field
 * arithmetic that only C2 makes fast, and submission-service runs C1 only (its load is a cold
 * rush) — in the deadline storm JDK signing was a third of the service's CPU samples.
 * Ed25519 is deterministic, so both give the same signature for the same key and digest
 * (PaperSignerTest checks it).
 */
@ApplicationScoped
public class PaperSigner {
    private static final Logger LOG = Logger.getLogger(PaperSigner.class);

    private final String privateKeyPem;
    /**
     * Signatures made at start-up, on a background thread, before the first paper: signing is
     * several times slower until the JIT has compiled it — and a deadline rush is the first
     * time a service signs many papers (measured in the deadline storm: signing was 18 % of the
     * CPU samples of a freshly started service).
     */
    private final int warmUp;

    @Inject
    PaperSigner(PaperSigningConfig config) {
        this(config.privateKey(), config.warmUp());
    }

    PaperSigner(String privateKeyPem, int warmUp) {
        this.privateKeyPem = privateKeyPem;
        this.warmUp = warmUp;
    }

    private volatile SigningKey key;

    /** A private key and the signature algorithm its type implies (and BouncyCastle's form of an Ed25519 key). */
    record SigningKey(PrivateKey key, String algorithm, Ed25519PrivateKeyParameters ed25519) {
    }

    void warmUp(@Observes StartupEvent event) {
        if (warmUp <= 0) {
            return;
        }
        String algorithm;
        try {
            algorithm = algorithm();
        } catch (IllegalStateException e) {
            LOG.warnf("paper key not usable (papers cannot be signed): %s", e.getMessage());
            return;
        }
        // RSA's arithmetic is BigInteger intrinsics, fast from the start: only Ed25519 needs it.
        if (!"Ed25519".equals(algorithm)) {
            return;
        }
        Thread thread = new Thread(() -> {
            long started = System.nanoTime();
            try {
                for (int i = 0; i < warmUp; i++) {
                    sign(digest("warm-up " + i));
                }
                LOG.debugf("paper signing warmed up: %d %s signatures in %d ms", Integer.valueOf(warmUp), algorithm(),
                        Long.valueOf((System.nanoTime() - started) / 1_000_000));
            } catch (RuntimeException e) {
                LOG.warnf("paper signing warm-up failed: %s", e.toString());
            }
        }, "paper-signing-warm-up");
        thread.setDaemon(true);
        thread.setPriority(Thread.MIN_PRIORITY);
        thread.start();
    }

    public String digest(String canonicalDocument) {
        return Canonical.sha256Hex(canonicalDocument);
    }

    public String sign(String digest) {
        SigningKey signing = key();
        byte[] message = digest.getBytes(StandardCharsets.UTF_8);
        if (signing.ed25519() != null) {
            Ed25519Signer signer = new Ed25519Signer();
            signer.init(true, signing.ed25519());
            signer.update(message, 0, message.length);
            return Base64.getEncoder().encodeToString(signer.generateSignature());
        }
        try {
            Signature signer = Signature.getInstance(signing.algorithm());
            signer.initSign(signing.key());
            signer.update(message);
            return Base64.getEncoder().encodeToString(signer.sign());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("could not sign a paper", e);
        }
    }

    /** The JCA signature algorithm for this key's type: SHA256withRSA or Ed25519. */
    public String algorithm() {
        return key().algorithm();
    }

    private SigningKey key() {
        SigningKey current = key;
        if (current == null) {
            PrivateKey parsed = privateKey(privateKeyPem);
            String algorithm = signatureAlgorithm(parsed);
            Ed25519PrivateKeyParameters ed25519 = parsed instanceof EdECPrivateKey edec && "Ed25519".equals(algorithm)
                    ? new Ed25519PrivateKeyParameters(edec.getBytes()
                            .orElseThrow(() -> new IllegalStateException("the Ed25519 paper key has no private bytes")), 0)
                    : null;
            current = new SigningKey(parsed, algorithm, ed25519);
            key = current;
        }
        return current;
    }

    /** A PKCS#8 PEM private key, RSA or Ed25519 (headers and line breaks optional). */
    static PrivateKey privateKey(String pem) {
        return Pem.rsaOrEd25519PrivateKey(pem, "the paper key");
    }

    static String signatureAlgorithm(Key key) {
        return switch (key.getAlgorithm()) {
            case "RSA" -> "SHA256withRSA";
            case "EdDSA", "Ed25519" -> "Ed25519";
            default -> throw new IllegalStateException("no paper signature for " + key.getAlgorithm() + " keys");
        };
    }
}
