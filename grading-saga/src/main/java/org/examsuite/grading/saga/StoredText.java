package org.examsuite.grading.saga;

/** Errors and details the saga's tables keep (a step's last error, a history row's detail) are cut to a bounded length. */
final class StoredText {
    static final int MAX = 1000;

    private StoredText() {
    }

    static String truncate(String text) {
        if (text == null) {
            return null;
        }
        return text.length() > MAX ? text.substring(0, MAX) : text;
    }
}
