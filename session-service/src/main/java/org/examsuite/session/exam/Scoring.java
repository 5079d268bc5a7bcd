package org.examsuite.session.exam;

/** MULTIPLE only: PARTIAL (right choices minus wrong ones, floored at 0, pro rata) or ALL_OR_NOTHING. */
public enum Scoring {
    PARTIAL, ALL_OR_NOTHING
}
