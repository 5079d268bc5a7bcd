package org.examsuite.submission.paper;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.UUID;
import org.examsuite.common.problem.ApiException;
import org.examsuite.contracts.problem.ProblemCode;

/** A paper by id, or 404 PAPER_NOT_FOUND (an id that is not even a UUID included). */
@ApplicationScoped
public class PaperLookup {
    private final PaperStore papers;

    @Inject
    PaperLookup(PaperStore papers) {
        this.papers = papers;
    }

    public Paper require(String paperId) {
        UUID id;
        try {
            id = UUID.fromString(paperId);
        } catch (IllegalArgumentException e) {
            throw notFound();
        }
        Paper paper = papers.findById(id);
        if (paper == null) {
            throw notFound();
        }
        return paper;
    }

    private static ApiException notFound() {
        return ApiException.notFound(ProblemCode.PAPER_NOT_FOUND, "No such paper.");
    }
}
