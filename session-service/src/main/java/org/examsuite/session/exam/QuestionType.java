package org.examsuite.session.exam;

/** docs/api.md §4.2; the answer value each type takes is in §4.4. */
public enum QuestionType {
    SINGLE, MULTIPLE, TRUE_FALSE, FILL, NUMERIC, ESSAY;

    public boolean hasOptions() {
        return this == SINGLE || this == MULTIPLE;
    }
}
