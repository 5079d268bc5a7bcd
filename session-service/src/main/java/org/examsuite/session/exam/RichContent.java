package org.examsuite.session.exam;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.examsuite.common.problem.ApiException;
import org.examsuite.contracts.problem.ProblemCode;
import org.examsuite.session.exam.content.ContentFinding;
import org.examsuite.session.exam.content.MarkdownPolicy;

/**
 * The prompts and options of Markdown questions against {@link MarkdownPolicy}: refused whole
 * (400 {@code UNSAFE_CONTENT}, naming the first question and field, every finding in
 * {@code violations}), never stored altered. Plain-text questions are shown as text and need no check.
 */
@ApplicationScoped
public class RichContent {
    private final MarkdownPolicy markdown;

    RichContent(MarkdownPolicy markdown) {
        this.markdown = markdown;
    }

    /** FIGURES: the ids of the exam's figures, which its questions may show. */
    void check(List<Question> questions, Set<String> figures) {
        List<Map<String, String>> violations = new ArrayList<>();
        for (int i = 0; i < questions.size(); i++) {
            Question q = questions.get(i);
            if (!q.isMarkdown()) {
                continue;
            }
            String at = "questions[" + i + "]";
            add(violations, q.id(), at + ".prompt", markdown.check(q.prompt(), figures));
            if (q.options() != null) {
                for (int o = 0; o < q.options().size(); o++) {
                    add(violations, q.id(), at + ".options[" + o + "]", markdown.check(q.options().get(o), figures));
                }
            }
        }
        if (!violations.isEmpty()) {
            Map<String, String> first = violations.get(0);
            throw ApiException.badRequest(ProblemCode.UNSAFE_CONTENT, "Question " + first.get("questionId") + ", "
                    + first.get("field") + ": " + first.get("message") + ".")
                    .with("questionId", first.get("questionId"))
                    .with("field", first.get("field"))
                    .with("violations", violations);
        }
    }

    private static void add(List<Map<String, String>> violations, String questionId, String field, List<ContentFinding> findings) {
        for (ContentFinding finding : findings) {
            Map<String, String> violation = new LinkedHashMap<>();
            violation.put("questionId", questionId);
            violation.put("field", field);
            violation.put("message", finding.message());
            violations.add(violation);
        }
    }
}
