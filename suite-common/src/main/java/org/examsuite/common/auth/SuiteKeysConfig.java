package org.examsuite.common.auth;

import io.smallrye.config.ConfigMapping;
import java.util.Map;

/**
 * {@code exam.auth.keys.*}: the key sets ({@link KeySet}) that verify the suite's own tokens — the candidate tokens
 * session-service signs, and each service's tokens for another's {@code /internal} API, by the service's name.
 */
@ConfigMapping(prefix = "exam.auth.keys")
public interface SuiteKeysConfig {
    /** {@code EXAM_CANDIDATE_PUBLIC_KEY}: one key, or the old and new during a rotation. */
    String candidate();

    /** By service name ({@link Roles#SERVICES}): the keys its service tokens are signed with; none refuses it. */
    Map<String, String> callers();
}
