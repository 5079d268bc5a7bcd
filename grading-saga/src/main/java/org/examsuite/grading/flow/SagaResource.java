package org.examsuite.grading.flow;

import com.fasterxml.jackson.databind.ObjectMapper;
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
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.examsuite.common.auth.Caller;
import org.examsuite.common.auth.Roles;
import org.examsuite.common.problem.ApiException;
import org.examsuite.contracts.problem.ProblemCode;
import org.examsuite.grading.audit.AuditLog;
import org.examsuite.grading.db.Db;
import org.examsuite.grading.results.PaperRun;
import org.examsuite.grading.results.ResultStore;
import org.examsuite.grading.results.ResultsService;
import org.examsuite.grading.saga.SagaContext;
import org.examsuite.grading.saga.SagaEngine;
import org.examsuite.grading.saga.SagaHistory;
import org.examsuite.grading.saga.SagaStatus;
import org.examsuite.grading.saga.SagaStore;
import org.examsuite.grading.saga.SagaStore.SagaRow;
import org.examsuite.grading.saga.StepLog;

/**
 * Operators inspect a saga and retry a FAILED one (docs/api.md §4.2). Here, not in saga/: what a
 * retry means (a newer run wins, a COMPENSATED paper is re-run as run n+1) is the grading flow's.
 */
@Tag(name = "sagas", description = "Grading sagas and their retry (docs/api.md §3.6)")
@Path("/api/v1/sagas")
@Produces(MediaType.APPLICATION_JSON)
public class SagaResource {
    private static final int HISTORY_LIMIT = 1000;

    private final SagaStore store;
    private final StepLog steps;
    private final SagaHistory history;
    private final SagaEngine engine;
    private final AuditLog audit;
    private final Db db;
    private final Caller caller;
    private final ResultStore results;
    private final ResultsService resultsService;
    private final ObjectMapper mapper;

    @Inject
    SagaResource(SagaStore store, StepLog steps, SagaHistory history, SagaEngine engine, AuditLog audit, Db db, Caller caller,
            ResultStore results, ResultsService resultsService, ObjectMapper mapper) {
        this.store = store;
        this.steps = steps;
        this.history = history;
        this.engine = engine;
        this.audit = audit;
        this.db = db;
        this.caller = caller;
        this.results = results;
        this.resultsService = resultsService;
        this.mapper = mapper;
    }

    @GET
    @Path("/{sagaId}")
    @RolesAllowed(Roles.OPERATOR)
    @Operation(summary = "A grading saga: its steps and history")
    @SecurityRequirement(name = "operator")
    @APIResponse(responseCode = "200", description = "The saga")
    @APIResponse(responseCode = "404", description = "SAGA_NOT_FOUND")
    public SagaView saga(@PathParam("sagaId") String sagaId) {
        return view(parse(sagaId));
    }

    /**
     * FAILED → the step that ran out of retries gets a fresh budget and the saga resumes (202).
     * COMPENSATED (its result NEEDS_REVIEW, e.g. after the cause was fixed upstream) → a new
     * run of the paper starts (202 with the new run's saga); its RESULT record supersedes any
     * earlier one. A saga already moving (running, waiting, compensating) is left as it is
     * (202, safe to repeat). COMPLETED (a regrade re-runs those) or SUPERSEDED, and any saga
     * that is not the paper's newest run, cannot be retried (409).
     */
    @POST
    @Path("/{sagaId}/retry")
    @RolesAllowed(Roles.OPERATOR)
    @Operation(summary = "Retry a FAILED saga, or re-run a COMPENSATED one as run n+1")
    @SecurityRequirement(name = "operator")
    @APIResponse(responseCode = "202", description = "The saga (for a re-run: the new one)", content = @Content(mediaType = "application/json", schema = @Schema(implementation = SagaView.class)))
    @APIResponse(responseCode = "404", description = "SAGA_NOT_FOUND")
    @APIResponse(responseCode = "409", description = "SAGA_NOT_RETRYABLE, SAGA_SUPERSEDED")
    public Response retry(@PathParam("sagaId") String sagaId) {
        UUID id = parse(sagaId);
        String actor = caller.actor();
        UUID[] shown = {id};
        String outcome = db.inTransaction(c -> {
            SagaRow saga = store.find(c, id, true).orElseThrow(SagaResource::notFound);
            PaperRun run = PaperRun.of(saga, mapper);
            String result;
            if (saga.state() == SagaStatus.FAILED && !results.isNewestRun(c, run.paperId(), run.run())) {
                throw ApiException.conflict(ProblemCode.SAGA_SUPERSEDED, "A newer run of this paper exists; retry or inspect that one.");
            }
            if (store.retryFailed(c, id, actor)) {
                engine.definition(saga.definition()).outcomes().retried(c, new SagaContext(saga.sagaId(), saga.key(),
                        saga.run(), null, null), actor);
                result = "retried";
            } else if (saga.state() == SagaStatus.COMPENSATED) {
                shown[0] = resultsService.rerun(c, saga, actor);
                history.history(c, id, "OPERATOR_RERUN", null, actor + ": saga " + shown[0]);
                result = "re-run as saga " + shown[0];
            } else if (saga.state() == SagaStatus.COMPLETED || saga.state() == SagaStatus.SUPERSEDED) {
                result = "finished";
            } else {
                result = "in progress";
            }
            audit.record(c, actor, "SAGA_RETRY", run.examId(), run.paperId(), id, result);
            return result;
        });
        if ("finished".equals(outcome)) {
            throw ApiException.conflict(ProblemCode.SAGA_NOT_RETRYABLE, "The saga has finished; a finished saga is not retried.");
        }
        engine.nudge();
        return Response.accepted(view(shown[0])).build();
    }

    private SagaView view(UUID id) {
        SagaRow saga = store.find(id).orElseThrow(SagaResource::notFound);
        PaperRun run = PaperRun.of(saga, mapper);
        return new SagaView(saga.sagaId(), saga.definition(), run.paperId(), run.run(), run.examId(), run.sessionId(),
                saga.status(), saga.phase(), saga.createdAt(), saga.updatedAt(), saga.nextAttemptAt(),
                steps.steps(id).stream().map(step -> new SagaView.StepView(step.step(), step.status(), step.attempts(),
                        step.compensationAttempts(), step.lastError(), step.startedAt(), step.finishedAt(),
                        step.compensatedAt())).toList(),
                history.history(id, HISTORY_LIMIT).stream()
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
        return ApiException.notFound(ProblemCode.SAGA_NOT_FOUND, "No such saga.");
    }
}
