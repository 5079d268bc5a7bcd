package org.examsuite.grading.scoring;

/** The question types of docs/api.md §4.4. */
public enum QuestionType {
    SINGLE, MULTIPLE, TRUE_FALSE, FILL, NUMERIC, ESSAY
}
