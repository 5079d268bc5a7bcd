package org.examsuite.session.roster;

import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.examsuite.common.auth.Roles;
import org.examsuite.session.access.ExamAccess;

/** docs/api.md §4.2: the roster of an exam for proctors, filtered and paged by keyset. */
@Tag(name = "proctoring")
@Path("/api/v1/exams")
public class RosterResource {
    private final ExamAccess access;
    private final RosterService roster;

    RosterResource(RosterService roster, ExamAccess access) {
        this.access = access;
        this.roster = roster;
    }

    // booleans as strings: JAX-RS would read "yes" or "1" as false instead of refusing them
    @GET
    @Path("/{examId}/sessions")
    @RolesAllowed({Roles.OPERATOR, Roles.ADMIN, Roles.PROCTOR})
    @Operation(summary = "An exam's sessions (the roster) in candidateId order, a keyset page at a time")
    @SecurityRequirement(name = "operator")
    @APIResponse(responseCode = "200", description = "A page; nextCursor null on the last")
    @APIResponse(responseCode = "400", description = "VALIDATION_FAILED, INVALID_FIELD (field: after, a cursor the API did not return)")
    @APIResponse(responseCode = "404", description = "EXAM_NOT_FOUND")
    public Uni<RosterService.Page> sessions(@PathParam("examId") @Size(max = 64) String examId,
            @QueryParam("status") @Pattern(regexp = "IN_PROGRESS|PAUSED|SUBMITTED") String status,
            @QueryParam("flagged") @Pattern(regexp = "true|false") String flagged,
            @QueryParam("online") @Pattern(regexp = "true|false") String online,
            @QueryParam("after") @Size(max = 300) @Pattern(regexp = "[A-Za-z0-9_-]+") String after,
            @QueryParam("limit") @DefaultValue("50") @Min(1) @Max(200) int limit) {
        return access.exam(examId, ExamAccess.PROCTORING).chain(() -> roster.roster(examId, status, bool(flagged), bool(online), after, limit));
    }

    private static Boolean bool(String value) {
        return value == null ? null : Boolean.valueOf(value);
    }
}
