package org.examsuite.grading.saga;

import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.UUID;
import org.examsuite.common.auth.Caller;
import org.examsuite.common.auth.Roles;
import org.examsuite.common.problem.ApiException;
import org.examsuite.grading.audit.AuditLog;
import org.examsuite.grading.db.Db;
import org.examsuite.grading.saga.SagaStore.SagaRow;

/** Operators inspect a saga and retry a FAILED one (DESIGN.md §4.2). */
@Path("/api/v1/sagas")
@Produces(MediaType.APPLICATION_JSON)
public class SagaResource {
    private static final int HISTORY_LIMIT = 1000;

    @Inject
    SagaStore store;
    @Inject
    SagaEngine engine;
    @Inject
    AuditLog audit;
    @Inject
    Db db;
    @Inject
    Caller caller;

    @GET
    @Path("/{sagaId}")
    @RolesAllowed(Roles.OPERATOR)
    public SagaView saga(@PathParam("sagaId") String sagaId) {
        return view(parse(sagaId));
    }

    /**
     * FAILED → the step that ran out of retries gets a fresh budget and the saga resumes (202).
     * A saga already moving (running, waiting, compensating) is left as it is (202, safe to
     * repeat). A finished one (COMPLETED, COMPENSATED) cannot be retried (409).
     */
    @POST
    @Path("/{sagaId}/retry")
    @RolesAllowed(Roles.OPERATOR)
    public Response retry(@PathParam("sagaId") String sagaId) {
        UUID id = parse(sagaId);
        String actor = caller.subject();
        String outcome = db.inTransaction(c -> {
            SagaRow saga = store.find(c, id, true).orElseThrow(SagaResource::notFound);
            String result;
            if (store.retryFailed(c, id, actor)) {
                engine.definition(saga.definition()).outcomes().retried(c, new SagaContext(saga.sagaId(), saga.paperId(),
                        saga.run(), saga.examId(), saga.sessionId(), null), actor);
                result = "retried";
            } else if ("COMPLETED".equals(saga.status()) || "COMPENSATED".equals(saga.status())) {
                result = "finished";
            } else {
                result = "in progress";
            }
            audit.record(c, actor, "SAGA_RETRY", saga.examId(), saga.paperId(), id, result);
            return result;
        });
        if ("finished".equals(outcome)) {
            throw ApiException.conflict("SAGA_NOT_RETRYABLE", "The saga has finished; a finished saga is not retried.");
        }
        engine.nudge();
        return Response.accepted(view(id)).build();
    }

    private SagaView view(UUID id) {
        SagaRow saga = store.find(id).orElseThrow(SagaResource::notFound);
        return new SagaView(saga.sagaId(), saga.definition(), saga.paperId(), saga.run(), saga.examId(), saga.sessionId(),
                saga.status(), saga.phase(), saga.createdAt(), saga.updatedAt(), saga.nextAttemptAt(),
                store.steps(id).stream().map(step -> new SagaView.StepView(step.step(), step.status(), step.attempts(),
                        step.compensationAttempts(), step.lastError(), step.startedAt(), step.finishedAt(),
                        step.compensatedAt())).toList(),
                store.history(id, HISTORY_LIMIT).stream()
                        .map(event -> new SagaView.HistoryView(event.at(), event.event(), event.step(), event.detail())).toList());
    }

    private static UUID parse(String sagaId) {
        try {
            if (sagaId != null && sagaId.length() == 36) {
                return UUID.fromString(sagaId);
            }
        } catch (IllegalArgumentException e) {
            // falls through to 404
        }
        throw notFound();
    }

    private static ApiException notFound() {
        return ApiException.notFound("SAGA_NOT_FOUND", "No such saga.");
    }
}
