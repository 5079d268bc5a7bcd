package org.examsuite.session.session;

import io.smallrye.config.ConfigMapping;
import java.time.Duration;

/** The candidate tokens session-service signs: {@code exam.auth.candidate.private-key}, {@code exam.session.token-ttl}. */
@ConfigMapping(prefix = "exam")
public interface CandidateTokenConfig {
    Auth auth();

    Session session();

    interface Auth {
        Candidate candidate();

        interface Candidate {
            /** PEM, PKCS#8 ({@code EXAM_CANDIDATE_PRIVATE_KEY}). */
            String privateKey();
        }
    }

    interface Session {
        Duration tokenTtl();
    }
}
