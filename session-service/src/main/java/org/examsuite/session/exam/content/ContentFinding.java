package org.examsuite.session.exam.content;

/** Why a piece of Markdown is refused, in words for the operator who wrote it. */
public record ContentFinding(String message) {
}
