package org.examsuite.session.session;

import io.quarkus.runtime.annotations.RegisterForReflection;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.examsuite.common.auth.Roles;
import org.examsuite.common.problem.ApiException;
import org.examsuite.contracts.problem.ProblemCode;

/**
 * {@code POST /internal/v1/sessions/submitted}: the papers submission-service stored together,
 * told in one call — each exactly as {@code POST /internal/v1/sessions/{id}/submitted} would
 * record it (idempotent, the status only moves forward); the ones that could not be recorded
 * are named with their problem code, for the caller to retry them alone.
 */
@Tag(name = "internal")
@Path("/internal/v1/sessions/submitted")
@RolesAllowed(Roles.FROM_SUBMISSION_SERVICE)
public class SubmittedBatchResource {
    private final SessionService sessions;

    SubmittedBatchResource(SessionService sessions) {
        this.sessions = sessions;
    }

    @RegisterForReflection
    public record Submitted(@NotBlank @Size(max = 128) String sessionId, @NotBlank @Size(max = 64) String paperId,
            @Pattern(regexp = "CANDIDATE|AUTO|PROCTOR") String submittedBy) {
    }

    public record Batch(@NotNull @Size(min = 1, max = 200) List<@Valid @NotNull Submitted> papers) {
    }

    /** {@code {"failed": {sessionId: code}}}; every session not named there is recorded. */
    public record Reply(Map<String, String> failed) {
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "Record 1–200 papers, each as its own /submitted would (idempotent)")
    @SecurityRequirement(name = "service")
    @APIResponse(responseCode = "200", description = "failed: the sessions not recorded, with their code (retry them alone)")
    @APIResponse(responseCode = "400", description = "VALIDATION_FAILED")
    public Uni<Reply> submitted(@Valid @NotNull Batch batch) {
        List<Uni<String>> each = new ArrayList<>(batch.papers().size());
        for (Submitted paper : batch.papers()) {
            each.add(sessions.recordSubmission(paper.sessionId(), paper.paperId(), paper.submittedBy())
                    .map(recorded -> (String) null)
                    .onFailure().recoverWithItem(failure -> failure instanceof ApiException api ? api.code() : ProblemCode.SERVICE_UNAVAILABLE.name()));
        }
        return Uni.join().all(each).andCollectFailures().map(codes -> {
            Map<String, String> failed = new LinkedHashMap<>();
            for (int i = 0; i < codes.size(); i++) {
                if (codes.get(i) != null) {
                    failed.put(batch.papers().get(i).sessionId(), codes.get(i));
                }
            }
            return new Reply(failed);
        });
    }
}
