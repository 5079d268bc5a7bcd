package org.examsuite.demo.verify;

import java.util.ArrayList;
import java.util.List;

/** The end-of-run verdict: per-candidate mismatches plus the suite-wide checks. */
public final class Verification {
    public final List<PaperCheck.Mismatch> mismatches = new ArrayList<>();
    public final List<String> problems = new ArrayList<>();
    public int candidates;
    public int papers;
    public int duplicates;
    public int lostAnswers;
    public int graded;
    /** GRADED results that name their archive record (operators see {@code archiveSeq}). */
    public int archived;
    public int autoSubmitted;
    public int essayMarksPosted;
    public long sqlPapers = -1;
    public String archiveVerify = "not checked";
    public boolean archiveOk;
    /** The latest a paper was stored after its session closed (deadline + grace), ms; negative: all before. */
    public long latestPaperAfterCloseMs = Long.MIN_VALUE;

    public void paperStored(long afterCloseMs) {
        latestPaperAfterCloseMs = Math.max(latestPaperAfterCloseMs, afterCloseMs);
    }

    public boolean ok() {
        return mismatches.isEmpty() && problems.isEmpty() && archiveOk;
    }
}
