package org.examsuite.grading.report;

/**
 * RFC 4180 cells: a cell holding a comma, a quote or a line break is quoted, its quotes
 * doubled. A text cell that a spreadsheet would run as a formula (it starts with =, +, -, @,
 * a tab or a carriage return) gets a leading apostrophe first (OWASP, "CSV Injection").
 */
final class Csv {
    static final String LINE_END = "\r\n";

    private Csv() {
    }

    /** A text cell (ids, statuses, times); null is an empty cell. */
    static String text(String value) {
        if (value == null || value.isEmpty()) {
            return "";
        }
        char first = value.charAt(0);
        String cell = first == '=' || first == '+' || first == '-' || first == '@' || first == '\t' || first == '\r'
                ? "'" + value : value;
        return quoted(cell);
    }

    /** A number the service computed (never a formula); null is an empty cell. */
    static String number(Object value) {
        return value == null ? "" : value.toString();
    }

    private static String quoted(String cell) {
        for (int i = 0; i < cell.length(); i++) {
            char c = cell.charAt(i);
            if (c == ',' || c == '"' || c == '\n' || c == '\r') {
                return '"' + cell.replace("\"", "\"\"") + '"';
            }
        }
        return cell;
    }
}
