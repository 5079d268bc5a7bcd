package org.examsuite.session.audit;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.examsuite.common.auth.Roles;
import org.examsuite.session.access.ExamAccess;

/** Operators read the audit log, newest first, filtered by exam and/or session. */
@Tag(name = "audit", description = "Operator actions: who, what, when (docs/api.md §3.8)")
@Path("/api/v1/audit")
public class AuditResource {
    private final Pool pool;
    private final ExamAccess access;

    @Inject
    AuditResource(Pool pool, ExamAccess access) {
        this.pool = pool;
        this.access = access;
    }

    public record AuditEntry(long id, Instant at, String actor, String action, String examId, String sessionId,
            Map<String, Object> detail) {
    }

    public record AuditPage(List<AuditEntry> entries) {
    }

    @GET
    @RolesAllowed({Roles.OPERATOR, Roles.ADMIN})
    @Operation(summary = "The audit log, newest first (an admin: the entries of their organisation's exams)")
    @SecurityRequirement(name = "operator")
    @APIResponse(responseCode = "200", description = "A page of entries")
    @APIResponse(responseCode = "400", description = "VALIDATION_FAILED (limit 1–500; ids ≤ 64)")
    public Uni<AuditPage> list(@QueryParam("examId") @Size(max = 64) String examId,
            @QueryParam("sessionId") @Size(max = 64) String sessionId,
            @QueryParam("limit") @DefaultValue("100") @Min(1) @Max(500) int limit) {
        ExamAccess.ListScope scope = access.listScope();
        return pool.preparedQuery("SELECT audit_id, at, actor, action, exam_id, session_id, detail::text AS detail_json FROM audit_entry "
                + "WHERE ($1::text IS NULL OR exam_id = $1) AND ($2::text IS NULL OR session_id = $2) "
                + "AND ($4 OR exam_id IN (SELECT exam_id FROM exam WHERE organisation = $5)) "
                + "ORDER BY audit_id DESC LIMIT $3")
                .execute(Tuple.of(examId, sessionId, limit, scope.all(), scope.organisation()))
                .map(rows -> {
                    List<AuditEntry> entries = new ArrayList<>();
                    for (Row row : rows) {
                        entries.add(new AuditEntry(row.getLong("audit_id"), row.getOffsetDateTime("at").toInstant(),
                                row.getString("actor"), row.getString("action"), row.getString("exam_id"),
                                row.getString("session_id"), new io.vertx.core.json.JsonObject(row.getString("detail_json")).getMap()));
                    }
                    return new AuditPage(entries);
                });
    }
}
