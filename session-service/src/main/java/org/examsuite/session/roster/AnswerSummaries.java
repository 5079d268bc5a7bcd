package org.examsuite.session.roster;

import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.rest.client.inject.RestClient;
import org.examsuite.session.roster.AnswerClient.Summary;
import org.jboss.logging.Logger;

/**
 * The answered count and last save of a roster page's sessions: answer-service owns the drafts
 * (session-service may not read its keys), so one call per page asks it. The roster must not
 * depend on it: a call that fails or takes over a second leaves those columns unknown (null).
 */
@ApplicationScoped
public class AnswerSummaries {
    private static final Logger LOG = Logger.getLogger(AnswerSummaries.class);
    private static final Duration WAIT = Duration.ofSeconds(1);

    private final AnswerClient answers;

    AnswerSummaries(@RestClient AnswerClient answers) {
        this.answers = answers;
    }

    /** By session id; empty when answer-service could not tell. */
    public Uni<Map<String, Summary>> of(List<String> sessionIds) {
        if (sessionIds.isEmpty()) {
            return Uni.createFrom().item(Map.of());
        }
        return answers.summary(new AnswerClient.SummaryRequest(sessionIds))
                .ifNoItem().after(WAIT).fail()
                .map(reply -> reply == null || reply.summaries() == null ? Map.<String, Summary>of() : reply.summaries())
                .onFailure().recoverWithItem(failure -> {
                    LOG.debugf("answer summaries unavailable for the roster: %s", failure.toString());
                    return Map.of();
                });
    }
}
