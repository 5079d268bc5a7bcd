package org.examsuite.grading.archive;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** The archive's settings ({@code exam.archive.*}). */
@ConfigMapping(prefix = "exam.archive")
public interface ArchiveConfig {
    Signing signing();

    /** Results appended in one transaction at most (the archive step's group commit). */
    @WithDefault("100")
    int appendBatch();

    /** How long a saga worker waits for its result's append before it counts as a transient failure. */
    @WithDefault("30s")
    Duration appendTimeout();

    interface Signing {
        /** The key that signs the archive's head (PEM, PKCS#8). */
        String privateKey();

        /**
         * The public keys that verify the heads signed so far ({@code EXAM_ARCHIVE_PUBLIC_KEY}: a key set, the current
         * key and any earlier one still anchored), published by {@code GET /api/v1/archive/keys}.
         */
        String publicKey();
    }
}
