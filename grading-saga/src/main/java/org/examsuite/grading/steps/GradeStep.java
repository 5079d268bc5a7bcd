package org.examsuite.grading.steps;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.Map;
import org.examsuite.grading.clients.PaperSource;
import org.examsuite.grading.results.PaperRun;
import org.examsuite.grading.results.ResultStore;
import org.examsuite.grading.saga.SagaContext;
import org.examsuite.grading.saga.StepFailure;
import org.examsuite.grading.saga.StepOutcome;
import org.examsuite.grading.scoring.Choices;
import org.examsuite.grading.scoring.ExamKey;
import org.examsuite.grading.scoring.Grading;
import org.examsuite.grading.scoring.PaperGrader;

/**
 * Step 1 — grade: the paper's answers against the exam's keys. Writes provisional marks
 * (never shown before the saga completes) and {@code data.grade}. With an essay still
 * unmarked it parks the saga; the operator's marks wake it and this step runs again.
 * Idempotent: the same paper, keys and essay marks give the same marks.
 * Compensation ({@link #voidMarks}): the provisional marks are voided.
 */
@ApplicationScoped
public class GradeStep {
    private final PaperSource papers;
    private final ExamCache exams;
    private final PaperGrader grader;
    private final ResultStore results;
    private final ObjectMapper mapper;
    private final FetchedPapers fetched;

    @Inject
    GradeStep(PaperSource papers, ExamCache exams, PaperGrader grader, ResultStore results, ObjectMapper mapper,
            FetchedPapers fetched) {
        this.papers = papers;
        this.exams = exams;
        this.grader = grader;
        this.results = results;
        this.mapper = mapper;
        this.fetched = fetched;
    }

    public StepOutcome execute(SagaContext context) {
        ObjectNode data = context.data();
        PaperRun run = PaperRun.of(context);
        String raw = StepCalls.remote(() -> papers.paper(run.paperId()));
        JsonNode paper = parse(raw);
        ExamKey whole;
        try {
            whole = StepCalls.remote(() -> exams.get(run.examId(), data.path("minKeyRevision").asLong(0)));
        } catch (IllegalArgumentException malformed) {
            throw StepFailure.permanent("exam " + run.examId() + ": " + malformed.getMessage());
        }
        if (!whole.pools().isEmpty() && run.sessionId() == null) {
            throw StepFailure.permanent("exam " + run.examId() + " has pools but the saga names no session to draw for");
        }
        // with pools, only the session's draw is scored and counts toward maxScore
        ExamKey exam = whole.forSession(run.sessionId());
        Grading grading = grader.grade(exam, paper.path("answers"), essayMarks(data));

        ObjectNode grade = data.putObject("grade");
        grade.put("paperDigest", paper.path("digest").asText(""));
        grade.put("candidateId", paper.path("candidateId").asText(null));
        grade.put("keyRevision", exam.keyRevision());
        grade.put("score", grading.score());
        grade.put("maxScore", grading.maxScore());
        ArrayNode marks = grade.putArray("marks");
        for (Grading.Mark mark : grading.marks()) {
            ObjectNode node = marks.addObject();
            node.put("questionId", mark.questionId());
            node.put("type", mark.type().name());
            node.put("points", mark.points());
            if (mark.score() == null) {
                node.putNull("score");
            } else {
                node.put("score", mark.score());
            }
        }
        // for the item statistics' option counts; not part of the archived result
        ObjectNode choices = Choices.of(exam, paper.path("answers"));
        grade.set("choices", choices);
        ArrayNode awaiting = grade.putArray("awaiting");
        grading.awaiting().forEach(awaiting::add);

        String reason = grading.complete() ? null : "awaiting operator marks for " + String.join(", ", grading.awaiting());
        String candidateId = grade.path("candidateId").asText(null);
        String marksJson = marks.toString();
        String choicesJson = choices.toString();
        // written with the step's record (DONE, or WAITING for essays): one transaction, not two; left out
        // when the saga completes in that transaction (the archive's GRADED result writes the same marks)
        context.withProvisionalStepRecord(c -> results.provisional(c, run.paperId(), run.run(), candidateId, grading.score(),
                grading.maxScore(), marksJson, choicesJson, exam.keyRevision(), reason));
        if (!grading.complete()) {
            return StepOutcome.WAIT;
        }
        if (paper instanceof ObjectNode parsed) {
            fetched.put(context.sagaId(), parsed);
        }
        return StepOutcome.DONE;
    }

    /** The compensation: the provisional marks are voided (with the step's record) and the grade forgotten. */
    public void voidMarks(SagaContext context) {
        PaperRun run = PaperRun.of(context);
        context.withStepRecord(c -> results.voidMarks(c, run.paperId(), run.run(), null));
        context.data().remove("grade");
        fetched.forget(context.sagaId());
    }

    private JsonNode parse(String raw) {
        try {
            return mapper.readTree(raw);
        } catch (JsonProcessingException e) {
            throw StepFailure.permanent("the paper is not JSON");
        }
    }

    static Map<String, BigDecimal> essayMarks(ObjectNode data) {
        Map<String, BigDecimal> marks = new HashMap<>();
        data.path("essayMarks").fields().forEachRemaining(entry -> {
            if (entry.getValue().isNumber()) {
                marks.put(entry.getKey(), entry.getValue().decimalValue());
            }
        });
        return marks;
    }

    /** The digest the grade step graded: validate checks that it graded exactly the verified paper. */
    static String digestOf(ObjectNode data) {
        return data.path("grade").path("paperDigest").asText("");
    }
}
