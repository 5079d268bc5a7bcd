package org.examsuite.submission.paper;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** {@code exam.paper.signing.*}: the key that signs papers ({@link PaperSigner}). */
@ConfigMapping(prefix = "exam.paper.signing")
public interface PaperSigningConfig {
    /** PEM, PKCS#8: Ed25519 or RSA. */
    String privateKey();

    /** Signatures made at start-up, before the first paper, so the JIT has compiled signing by the first rush; 0: none. */
    @WithDefault("500")
    int warmUp();
}
