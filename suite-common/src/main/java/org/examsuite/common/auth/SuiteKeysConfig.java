package org.examsuite.common.auth;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithName;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * {@code exam.auth.keys.*}: the key sets ({@link KeySet}) that verify the suite's own tokens — the candidate tokens
 * session-service signs, and each service's tokens for another's {@code /internal} API, by the service's name.
 */
@ConfigMapping(prefix = "exam.auth.keys")
public interface SuiteKeysConfig {
    /** {@code EXAM_CANDIDATE_PUBLIC_KEY}: one key, or the old and new during a rotation. */
    String candidate();

    /** Each service's key set; a service given none is refused (the chart gives each only its callers'). */
    Callers callers();

    interface Callers {
        @WithName(Roles.SESSION_SERVICE)
        Optional<String> sessionService();

        @WithName(Roles.ANSWER_SERVICE)
        Optional<String> answerService();

        @WithName(Roles.SUBMISSION_SERVICE)
        Optional<String> submissionService();

        @WithName(Roles.GRADING_SAGA)
        Optional<String> gradingSaga();

        /** By service name ({@link Roles#SERVICES}): the configured key sets. */
        default Map<String, String> byService() {
            Map<String, String> sets = new LinkedHashMap<>();
            sessionService().ifPresent(keys -> sets.put(Roles.SESSION_SERVICE, keys));
            answerService().ifPresent(keys -> sets.put(Roles.ANSWER_SERVICE, keys));
            submissionService().ifPresent(keys -> sets.put(Roles.SUBMISSION_SERVICE, keys));
            gradingSaga().ifPresent(keys -> sets.put(Roles.GRADING_SAGA, keys));
            return sets;
        }
    }
}
