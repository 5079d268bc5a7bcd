package org.examsuite.session.roster;

import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.rest.client.annotation.RegisterProvider;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;
import org.examsuite.common.auth.ServiceTokenFilter;

/** answer-service's internal summary of drafts (docs/api.md §4.3), with a service token. */
@RegisterRestClient(configKey = "answer")
@RegisterProvider(ServiceTokenFilter.class)
@Path("/internal/v1/answers")
public interface AnswerClient {

    record SummaryRequest(List<String> sessionIds) {
    }

    record Summary(Long answered, Instant lastSavedAt) {
    }

    record Summaries(Map<String, Summary> summaries) {
    }

    @POST
    @Path("/summary")
    Uni<Summaries> summary(SummaryRequest request);
}
