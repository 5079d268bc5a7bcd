package org.examsuite.grading.scoring;

/** The question types of DESIGN.md §4.2. */
public enum QuestionType {
    SINGLE, MULTIPLE, TRUE_FALSE, FILL, NUMERIC, ESSAY
}
