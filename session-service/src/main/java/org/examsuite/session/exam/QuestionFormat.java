package org.examsuite.session.exam;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * How a question's prompt and options are written (docs/api.md §4.5): plain text, shown as text
 * only (the default, stored as no format at all), or Markdown with LaTeX formulas and code.
 */
public enum QuestionFormat {
    @JsonProperty("text")
    TEXT,
    @JsonProperty("markdown")
    MARKDOWN
}
