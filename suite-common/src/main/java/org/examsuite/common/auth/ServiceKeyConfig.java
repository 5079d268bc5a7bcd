package org.examsuite.common.auth;

import io.smallrye.config.ConfigMapping;

/** {@code exam.auth.service.*}: the suite's service key, which signs this service's calls to another's {@code /internal} API. */
@ConfigMapping(prefix = "exam.auth.service")
public interface ServiceKeyConfig {
    /** PEM, PKCS#8 ({@code EXAM_SERVICE_PRIVATE_KEY}). */
    String privateKey();
}
