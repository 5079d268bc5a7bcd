package org.examsuite.answer.draft;

import com.fasterxml.jackson.databind.JsonNode;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.media.SchemaProperty;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.examsuite.common.auth.Roles;

/**
 * {@code POST /internal/v1/answers/summary} {@code {"sessionIds": [...]}} (service token; docs/api.md
 * §4.3): per session the questions answered and when a change was last applied, for the proctors'
 * roster page in session-service, which may not read the drafts itself. Read from two fields
 * autosave.lua keeps in the draft: one pipelined round trip for a page, nothing added to an
 * autosave's Redis calls. A session without a draft in Redis is left out.
 */
@Tag(name = "internal")
@Path("/internal/v1/answers")
public class SummaryResource {
    /** A roster page holds at most 200 sessions. */
    static final int MAX_SESSIONS = 200;

    private final DraftStore drafts;

    SummaryResource(DraftStore drafts) {
        this.drafts = drafts;
    }

    public record SessionSummary(long answered, Instant lastSavedAt) {
    }

    public record Summaries(Map<String, SessionSummary> summaries) {
    }

    @POST
    @Path("/summary")
    @RolesAllowed(Roles.FROM_SESSION_SERVICE)
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "Answered count and last save of 1–200 sessions (the proctors' roster)")
    @SecurityRequirement(name = "service")
    @RequestBody(required = true, content = @Content(mediaType = "application/json", schema = @Schema(type = SchemaType.OBJECT,
            properties = @SchemaProperty(name = "sessionIds", type = SchemaType.ARRAY, minItems = 1, maxItems = MAX_SESSIONS))))
    @APIResponse(responseCode = "200", description = "summaries: {sessionId: {answered, lastSavedAt}} (sessions without a draft left out)")
    @APIResponse(responseCode = "400", description = "INVALID_FIELD (field: sessionIds)")
    public Uni<Summaries> summary(JsonNode body) {
        List<String> ids = SessionIdList.parse(body, MAX_SESSIONS);
        return drafts.summaries(ids).map(found -> {
            Map<String, SessionSummary> out = new LinkedHashMap<>();
            for (int i = 0; i < ids.size(); i++) {
                DraftStore.Summary summary = found.get(i);
                if (summary != null) {
                    out.put(ids.get(i), new SessionSummary(summary.answered(),
                            summary.lastSavedAtMs() == null ? null : Instant.ofEpochMilli(summary.lastSavedAtMs())));
                }
            }
            return new Summaries(out);
        });
    }

}
