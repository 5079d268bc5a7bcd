package org.examsuite.answer.seal;

import com.fasterxml.jackson.databind.JsonNode;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
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
import org.examsuite.answer.draft.DraftResource;
import org.examsuite.answer.draft.SessionIdList;
import org.examsuite.common.auth.Roles;

/**
 * The seal (service token only; docs/api.md, internal APIs): {@code POST
 * /internal/v1/answers/{sessionId}/seal} for one session, {@code POST /internal/v1/answers/seal}
 * with {@code {"sessionIds": [...]}} for the papers submission-service stores together.
 */
@Tag(name = "internal")
@Path("/internal/v1/answers")
public class SealResource {
    /** Sessions per group seal: submission-service's groups are smaller. */
    static final int MAX_SESSIONS = 256;

    private final SealService service;

    SealResource(SealService service) {
        this.service = service;
    }

    @POST
    @Path("/{sessionId}/seal")
    @RolesAllowed(Roles.FROM_SUBMISSION_SERVICE)
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "Seal a session's draft and answer its snapshot (idempotent)")
    @SecurityRequirement(name = "service")
    @APIResponse(responseCode = "200", description = "The sealed snapshot", content = @Content(mediaType = "application/json", schema = @Schema(type = SchemaType.OBJECT, description = "{sessionId, sealedAt, version, generation, lateChanges, answers: {q: {value, version, epoch}}}")))
    @APIResponse(responseCode = "404", description = "SESSION_NOT_FOUND")
    public Uni<String> seal(@PathParam("sessionId") String sessionId) {
        DraftResource.requireSafe(sessionId);
        return service.seal(sessionId);
    }

    /**
     * {@code {"sealed": {sessionId: snapshot}, "unavailable": [sessionId]}}: each session sealed
     * as the one-session seal would, or named unavailable (retry it) — never a partial snapshot.
     */
    @POST
    @Path("/seal")
    @RolesAllowed(Roles.FROM_SUBMISSION_SERVICE)
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "Seal 1–256 sessions, each exactly as its own seal would")
    @SecurityRequirement(name = "service")
    @RequestBody(required = true, content = @Content(mediaType = "application/json", schema = @Schema(type = SchemaType.OBJECT,
            properties = @SchemaProperty(name = "sessionIds", type = SchemaType.ARRAY, minItems = 1, maxItems = 256))))
    @APIResponse(responseCode = "200", description = "sealed: {sessionId: snapshot}, unavailable: [sessionId] (retry those)",
            content = @Content(mediaType = "application/json", schema = @Schema(type = SchemaType.OBJECT)))
    @APIResponse(responseCode = "400", description = "INVALID_FIELD (field: sessionIds)")
    public Uni<String> sealAll(JsonNode body) {
        List<String> ids = SessionIdList.parse(body, MAX_SESSIONS);
        return service.seal(ids).map(SealResource::reply);
    }

    /** Snapshots are stored JSON text: written as they are (session ids are safe ids: no quoting needed). */
    private static String reply(SealService.Sealed sealed) {
        StringBuilder out = new StringBuilder(256 * (1 + sealed.snapshots().size())).append("{\"sealed\":{");
        boolean first = true;
        for (Map.Entry<String, String> entry : sealed.snapshots().entrySet()) {
            out.append(first ? "\"" : ",\"").append(entry.getKey()).append("\":").append(entry.getValue());
            first = false;
        }
        out.append("},\"unavailable\":[");
        first = true;
        for (String id : sealed.unavailable()) {
            out.append(first ? "\"" : ",\"").append(id).append('"');
            first = false;
        }
        return out.append("]}").toString();
    }
}
