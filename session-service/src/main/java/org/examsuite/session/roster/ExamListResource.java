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
import jakarta.ws.rs.QueryParam;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.examsuite.common.auth.Roles;
import org.examsuite.session.access.ExamAccess;

/** docs/api.md §4.2: {@code GET /api/v1/exams}, the exams newest first, a keyset page at a time. */
@Tag(name = "exams")
@Path("/api/v1/exams")
public class ExamListResource {
    private final ExamListService exams;
    private final ExamAccess access;

    ExamListResource(ExamListService exams, ExamAccess access) {
        this.exams = exams;
        this.access = access;
    }

    @GET
    @RolesAllowed({Roles.OPERATOR, Roles.ADMIN, Roles.AUTHOR, Roles.PROCTOR, Roles.GRADER})
    @Operation(summary = "The exams the caller may see (an operator: all; staff: their organisation's, or assigned), newest first, a keyset page at a time")
    @SecurityRequirement(name = "operator")
    @APIResponse(responseCode = "200", description = "A page; nextCursor null on the last")
    @APIResponse(responseCode = "400", description = "VALIDATION_FAILED, INVALID_FIELD (field: after, a cursor the API did not return)")
    public Uni<ExamListService.ExamPage> list(
            @QueryParam("after") @Size(max = 300) @Pattern(regexp = "[A-Za-z0-9_-]+") String after,
            @QueryParam("limit") @DefaultValue("50") @Min(1) @Max(200) int limit) {
        return exams.list(after, limit, access.listScope());
    }
}
