package org.examsuite.answer.persistence;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.runtime.annotations.RegisterForReflection;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.examsuite.answer.draft.DraftResource;
import org.examsuite.common.auth.Caller;
import org.examsuite.common.auth.Roles;
import org.examsuite.common.problem.ApiException;
import org.examsuite.contracts.problem.ProblemCode;
import org.jboss.logging.Logger;

/**
 * The answer history for appeals and audits (operators): every value that reached
 * PostgreSQL, with its stamp and generation, oldest first; page with {@code after}.
 */
@Tag(name = "answers")
@Path("/api/v1/answers/{sessionId}/history")
@Produces(MediaType.APPLICATION_JSON)
public class HistoryResource {
    static final int MAX_LIMIT = 5000;
    /** Operator actions are audited (docs/api.md §4): who read which session's history, when (log time). */
    private static final Logger AUDIT = Logger.getLogger("org.examsuite.answer.audit");

    private final DraftRepository repository;
    private final ObjectMapper mapper;
    private final Caller caller;

    @Inject
    HistoryResource(DraftRepository repository, ObjectMapper mapper, Caller caller) {
        this.repository = repository;
        this.mapper = mapper;
        this.caller = caller;
    }

    @RegisterForReflection
    public record Entry(long id, String questionId, JsonNode value, long version, long epoch, long generation,
            String persistedAt) {
    }

    @RegisterForReflection
    public record History(String sessionId, List<Entry> entries, Long next) {
    }

    @GET
    @RolesAllowed({Roles.OPERATOR, Roles.PROCTOR, Roles.GRADER})
    @Operation(summary = "Every value that reached PostgreSQL, oldest first, a page at a time (staff: sessions of their assigned exams)")
    @SecurityRequirement(name = "operator")
    @APIResponse(responseCode = "200", description = "A page; pass next as after (null: no more)")
    @APIResponse(responseCode = "400", description = "INVALID_FIELD (after, or limit outside 1–5,000)")
    @APIResponse(responseCode = "404", description = "SESSION_NOT_FOUND")
    public Uni<History> history(@PathParam("sessionId") String sessionId, @QueryParam("after") @DefaultValue("0") long after,
            @QueryParam("limit") @DefaultValue("1000") int limit) {
        DraftResource.requireSafe(sessionId);
        if (limit < 1 || limit > MAX_LIMIT || after < 0) {
            throw ApiException.badRequest(ProblemCode.INVALID_FIELD, "'limit' must be in [1, " + MAX_LIMIT + "], 'after' ≥ 0.")
                    .with("field", limit < 1 || limit > MAX_LIMIT ? "limit" : "after");
        }
        Uni<Void> scope = !caller.isStaff() ? Uni.createFrom().voidItem() : repository.examOf(sessionId).map(examId -> {
            if (examId == null || !caller.reachesExam(examId, null, Roles.PROCTOR, Roles.GRADER)) {
                throw ApiException.notFound(ProblemCode.SESSION_NOT_FOUND, "No such session.");
            }
            return null;
        });
        return scope.invoke(() -> AUDIT.infof("%s %s read the answer history of session %s (after %d, limit %d)",
                caller.isStaff() ? "staff" : "operator", caller.actor(), sessionId, after, limit))
                .chain(() -> repository.history(sessionId, after, limit)).map(rows -> {
            List<Entry> entries = rows.stream().map(r -> new Entry(r.id(), r.questionId(), json(r.value()), r.version(),
                    r.epoch(), r.generation(), r.persistedAt().toInstant().toString())).toList();
            Long next = entries.size() == limit ? entries.get(entries.size() - 1).id() : null;
            return new History(sessionId, entries, next);
        });
    }

    private JsonNode json(String text) {
        try {
            return mapper.readTree(text);
        } catch (Exception e) {
            throw new IllegalStateException("unreadable stored answer", e);
        }
    }
}
