package org.examsuite.common.auth;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** {@code exam.auth.token-cache.*}: the verified-token cache ({@link VerifiedTokens}). */
@ConfigMapping(prefix = "exam.auth.token-cache")
public interface TokenCacheConfig {
    /** Tokens kept at most; 0 keeps none (every request is verified). */
    @WithDefault("0")
    int maxEntries();
}
