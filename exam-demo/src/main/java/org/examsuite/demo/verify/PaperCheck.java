package org.examsuite.demo.verify;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The verdict for one candidate: compares what the candidate knows (its last sheet, its acknowledged and
 * in-doubt autosaves, the paper ids its submits got) with what the services hold. Pure: no I/O, so it is
 * tested on fabricated data.
 * <p>
 * A paper submitted by the candidate must equal the final sheet it sent, question by question. A paper the
 * deadline's auto-submit made must hold, per question, the newest acknowledged autosave — or a newer value
 * whose request got no answer (it may have been applied: a response lost after the server acted), or the
 * final sheet's value when a submit was attempted (the service keeps a sheet that reached it in time even
 * when it answered 429). An acknowledged value that is missing from the paper is a lost answer.
 */
public final class PaperCheck {
    public enum Kind { NO_SESSION, NO_PAPER, DUPLICATE_PAPER, PAPER_ID_DIFFERS, LOST_ANSWER, ANSWER_MISMATCH, PHANTOM_ANSWER,
        NOT_GRADED, CLIENT_ERROR }

    public record Mismatch(String candidateId, Kind kind, String detail) {
        @Override
        public String toString() {
            return candidateId + " " + kind + ": " + detail;
        }
    }

    /** What the candidate knows. {@code finalSheet} is null when it never tried to submit. */
    public record Expectation(String candidateId, String sessionId, Map<String, JsonNode> acknowledged,
            Map<String, List<JsonNode>> inDoubt, Map<String, JsonNode> finalSheet, Set<String> paperIdsSeen,
            List<String> clientErrors) {
    }

    /** A stored paper as the API serves it. */
    /** {@code submittedAtMs}: when submission-service stored it (epoch ms; 0 when not said). */
    public record Paper(String paperId, String submittedBy, Map<String, JsonNode> answers, long submittedAtMs) {
        public Paper(String paperId, String submittedBy, Map<String, JsonNode> answers) {
            this(paperId, submittedBy, answers, 0);
        }
    }

    /** What the services hold. {@code sqlPaperCount} null when the database was not read. */
    public record Observation(String sessionPaperId, Paper paper, Integer sqlPaperCount, String resultStatus) {
    }

    public record Verdict(List<Mismatch> mismatches, int lostAnswers, boolean duplicate, boolean hasPaper) {
        public boolean ok() {
            return mismatches.isEmpty();
        }
    }

    private PaperCheck() {
    }

    public static Verdict check(Expectation expected, Observation observed) {
        List<Mismatch> mismatches = new ArrayList<>();
        String who = expected.candidateId();
        expected.clientErrors().forEach(error -> mismatches.add(new Mismatch(who, Kind.CLIENT_ERROR, error)));
        if (expected.sessionId() == null) {
            mismatches.add(new Mismatch(who, Kind.NO_SESSION, "the candidate never got a session"));
            return new Verdict(mismatches, 0, false, false);
        }
        boolean duplicate = false;
        if (expected.paperIdsSeen().size() > 1) {
            duplicate = true;
            mismatches.add(new Mismatch(who, Kind.DUPLICATE_PAPER, "submits answered with papers " + expected.paperIdsSeen()));
        }
        if (observed.sqlPaperCount() != null && observed.sqlPaperCount() > 1) {
            duplicate = true;
            mismatches.add(new Mismatch(who, Kind.DUPLICATE_PAPER, observed.sqlPaperCount() + " papers in exam_submission"));
        }
        Paper paper = observed.paper();
        if (paper == null || (observed.sqlPaperCount() != null && observed.sqlPaperCount() == 0)) {
            mismatches.add(new Mismatch(who, Kind.NO_PAPER, "session " + expected.sessionId() + " has no paper"
                    + (observed.sqlPaperCount() == null ? "" : " (" + observed.sqlPaperCount() + " rows)")));
            return new Verdict(mismatches, 0, duplicate, false);
        }
        if (observed.sessionPaperId() != null && !observed.sessionPaperId().equals(paper.paperId())) {
            mismatches.add(new Mismatch(who, Kind.PAPER_ID_DIFFERS, "session names " + observed.sessionPaperId()
                    + ", paper read is " + paper.paperId()));
        }
        if (!expected.paperIdsSeen().isEmpty() && !expected.paperIdsSeen().contains(paper.paperId())) {
            mismatches.add(new Mismatch(who, Kind.PAPER_ID_DIFFERS, "submit answered " + expected.paperIdsSeen()
                    + ", the session's paper is " + paper.paperId()));
        }
        int lost = "CANDIDATE".equals(paper.submittedBy()) ? compareWithSheet(expected, paper, mismatches)
                : compareWithDraft(expected, paper, mismatches);
        if (observed.resultStatus() != null && !"GRADED".equals(observed.resultStatus())) {
            mismatches.add(new Mismatch(who, Kind.NOT_GRADED, "result status " + observed.resultStatus()));
        }
        return new Verdict(mismatches, lost, duplicate, true);
    }

    private static int compareWithSheet(Expectation expected, Paper paper, List<Mismatch> mismatches) {
        String who = expected.candidateId();
        if (expected.finalSheet() == null) {
            mismatches.add(new Mismatch(who, Kind.ANSWER_MISMATCH, "a CANDIDATE paper, but this candidate never submitted"));
            return 0;
        }
        int lost = 0;
        for (String id : union(expected.finalSheet(), paper.answers())) {
            JsonNode want = expected.finalSheet().get(id);
            JsonNode got = paper.answers().get(id);
            if (JsonValues.same(want, got)) {
                continue;
            }
            if (JsonValues.normal(got).isNull()) {
                lost++;
                mismatches.add(new Mismatch(who, Kind.LOST_ANSWER, id + ": sheet " + JsonValues.brief(want) + ", paper has none"));
            } else {
                mismatches.add(new Mismatch(who, Kind.ANSWER_MISMATCH, id + ": sheet " + JsonValues.brief(want) + ", paper "
                        + JsonValues.brief(got)));
            }
        }
        return lost;
    }

    private static int compareWithDraft(Expectation expected, Paper paper, List<Mismatch> mismatches) {
        String who = expected.candidateId();
        Map<String, JsonNode> sheet = expected.finalSheet() == null ? Map.of() : expected.finalSheet();
        Set<String> ids = union(expected.acknowledged(), paper.answers());
        ids.addAll(expected.inDoubt().keySet());
        ids.addAll(sheet.keySet());
        int lost = 0;
        for (String id : ids) {
            JsonNode got = paper.answers().get(id);
            JsonNode acknowledged = expected.acknowledged().get(id);
            if (JsonValues.same(acknowledged, got)
                    || expected.inDoubt().getOrDefault(id, List.of()).stream().anyMatch(v -> JsonValues.same(v, got))
                    || (sheet.containsKey(id) && JsonValues.same(sheet.get(id), got))) {
                continue;
            }
            if (!JsonValues.normal(acknowledged).isNull() && JsonValues.normal(got).isNull()) {
                lost++;
                mismatches.add(new Mismatch(who, Kind.LOST_ANSWER, id + ": acknowledged " + JsonValues.brief(acknowledged)
                        + ", paper has none"));
            } else if (JsonValues.normal(acknowledged).isNull()) {
                mismatches.add(new Mismatch(who, Kind.PHANTOM_ANSWER, id + ": neither acknowledged nor sent, paper has "
                        + JsonValues.brief(got)));
            } else {
                mismatches.add(new Mismatch(who, Kind.ANSWER_MISMATCH, id + ": acknowledged " + JsonValues.brief(acknowledged)
                        + ", paper " + JsonValues.brief(got)));
            }
        }
        return lost;
    }

    private static Set<String> union(Map<String, ?> a, Map<String, ?> b) {
        Set<String> ids = new TreeSet<>(a.keySet());
        ids.addAll(b.keySet());
        return ids;
    }
}
