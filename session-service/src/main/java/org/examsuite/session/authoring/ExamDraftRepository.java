package org.examsuite.session.authoring;

import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.smallrye.mutiny.Uni;
import io.quarkus.panache.common.Parameters;
import io.quarkus.panache.common.Sort;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.List;

/** The {@code exam_draft} table, through Hibernate Reactive Panache. */
@ApplicationScoped
public class ExamDraftRepository implements PanacheRepositoryBase<ExamDraft, String> {

    /**
     * Drafts not yet published, newest change first, after the keyset (UPDATED_AT, EXAM_ID) when not null: every
     * organisation's when ORGANISATION is null and ALL, else ORGANISATION's (none when it is null).
     */
    public Uni<List<ExamDraft>> page(boolean all, String organisation, Instant updatedAt, String examId, int limit) {
        String scope = all ? "" : " and organisation = :organisation";
        String after = updatedAt == null ? "" : " and (updatedAt < :updatedAt or (updatedAt = :updatedAt and examId < :examId))";
        Parameters parameters = Parameters.with("published", DraftState.PUBLISHED);
        if (!all) {
            parameters.and("organisation", organisation == null ? "" : organisation);
        }
        if (updatedAt != null) {
            parameters.and("updatedAt", updatedAt).and("examId", examId);
        }
        return find("state <> :published" + scope + after, Sort.descending("updatedAt", "examId"), parameters)
                .page(0, limit).list();
    }

    /** The draft CREATED_BY made with IDEMPOTENCY_KEY, or null. */
    public Uni<ExamDraft> findCreated(String createdBy, String idempotencyKey) {
        return find("createdBy = ?1 and idempotencyKey = ?2", createdBy, idempotencyKey).firstResult();
    }
}
