package org.examsuite.grading.scoring;

import com.fasterxml.jackson.databind.JsonNode;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.examsuite.contracts.answer.AnswerRule;
import org.examsuite.contracts.answer.QuestionType;

/**
 * Grades a paper against an exam's keys: one scorer per question type, after the one answer rule (suite-contracts);
 * essays take the operator's marks.
 */
@ApplicationScoped
public class PaperGrader {
    private final Map<QuestionType, Scorer> scorers = new EnumMap<>(QuestionType.class);

    @Inject
    PaperGrader(ScoringConfig config) {
        this(config.defaultScoring());
    }

    public PaperGrader(String multipleScoring) {
        scorers.put(QuestionType.SINGLE, new SingleScorer());
        scorers.put(QuestionType.MULTIPLE, new MultipleScorer(multipleScoring));
        scorers.put(QuestionType.TRUE_FALSE, new TrueFalseScorer());
        scorers.put(QuestionType.FILL, new FillScorer());
        scorers.put(QuestionType.NUMERIC, new NumericScorer());
    }

    /**
     * @param answers the paper's {@code answers} object: {@code {questionId: {value, version, epoch}}}
     * @param essayMarks the operator's marks for essays, by question id
     */
    public Grading grade(ExamKey exam, JsonNode answers, Map<String, BigDecimal> essayMarks) {
        List<Grading.Mark> marks = new ArrayList<>();
        List<String> awaiting = new ArrayList<>();
        BigDecimal score = BigDecimal.ZERO;
        BigDecimal max = BigDecimal.ZERO;
        for (Question question : exam.questions().values()) {
            max = max.add(question.points());
            BigDecimal mark;
            if (question.type() == QuestionType.ESSAY) {
                mark = essayMarks.get(question.id());
                if (mark == null) {
                    awaiting.add(question.id());
                } else {
                    mark = mark.setScale(Scorer.SCALE, RoundingMode.HALF_EVEN);
                }
            } else {
                JsonNode answer = answers == null ? null : answers.path(question.id()).get("value");
                // A value no question of the type takes scores nothing (a MULTIPLE naming an option twice is
                // not collapsed into a set). Without the options (an exam key of before they were kept) the
                // choice is not checked here: autosave and the final sheet checked it.
                boolean checkable = !question.type().hasOptions() || !question.options().isEmpty();
                mark = checkable && !AnswerRule.accepts(question.type().name(), question.options(), answer)
                        ? Scorer.none() : scorers.get(question.type()).score(question, answer);
            }
            if (mark != null) {
                score = score.add(mark);
            }
            marks.add(new Grading.Mark(question.id(), question.type(), question.points(), mark));
        }
        return new Grading(marks, score, max, awaiting);
    }
}
