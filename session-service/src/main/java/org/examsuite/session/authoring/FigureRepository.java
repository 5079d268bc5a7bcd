package org.examsuite.session.authoring;

import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** The {@code figure} table, through Hibernate Reactive Panache. Callers open the session or transaction. */
@ApplicationScoped
public class FigureRepository implements PanacheRepositoryBase<Figure, Figure.Key> {

    /** A figure without its bytes, for lists. */
    public record Summary(String figureId, String mediaType, int sizeBytes, Integer width, Integer height, Instant createdAt) {
    }

    public Uni<Figure> find(String examId, String figureId) {
        return findById(new Figure.Key(examId, figureId));
    }

    /** Whether EXAM_ID has the figure, without reading its bytes. */
    public Uni<Boolean> exists(String examId, String figureId) {
        return count("examId = ?1 and figureId = ?2", examId, figureId).map(n -> n > 0);
    }

    /** EXAM_ID's figures without their bytes, oldest first. */
    public Uni<List<Summary>> summaries(String examId) {
        return getSession().chain(session -> session.createSelectionQuery("select f.figureId, f.mediaType, f.sizeBytes, f.width, "
                + "f.height, f.createdAt from Figure f where f.examId = :exam order by f.createdAt, f.figureId", Object[].class)
                .setParameter("exam", examId)
                .getResultList())
                .map(rows -> rows.stream().map(row -> new Summary((String) row[0], (String) row[1], (Integer) row[2],
                        (Integer) row[3], (Integer) row[4], (Instant) row[5])).toList());
    }

    /** The ids of EXAM_ID's figures. */
    public Uni<Set<String>> idsOf(String examId) {
        return getSession().chain(session -> session.createSelectionQuery("select f.figureId from Figure f where f.examId = :exam",
                String.class).setParameter("exam", examId).getResultList()).map(LinkedHashSet::new);
    }

    /** Copies FROM's figures to the exam TO (a duplicate), unchanged but for who and when. */
    public Uni<Integer> copy(String from, String to, String actor, Instant now) {
        return getSession().chain(session -> session.createNativeQuery("INSERT INTO figure (exam_id, figure_id, media_type, content, "
                + "size_bytes, width, height, created_by, created_at) SELECT :to, figure_id, media_type, content, size_bytes, width, "
                + "height, :actor, :now FROM figure WHERE exam_id = :from ON CONFLICT DO NOTHING")
                .setParameter("to", to).setParameter("actor", actor).setParameter("now", now).setParameter("from", from)
                .executeUpdate());
    }
}
