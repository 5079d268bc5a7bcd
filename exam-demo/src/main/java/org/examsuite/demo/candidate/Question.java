package org.examsuite.demo.candidate;

import java.util.List;

/** A question as a candidate sees it (no key). */
public record Question(String id, String type, List<String> options) {
}
