package org.examsuite.tools.bench;

/** Cells of the tables the JDK drivers print (Storm.java, Surge.java), read as the scripts' awk -F'|' did. */
final class Markdown {
    private Markdown() {
    }

    /** The second cell of the first line of TABLE containing NEEDLE (awk's $3), without the characters of DROP; "" when none. */
    static String cell(String table, String needle, String drop) {
        for (String line : table.split("\n")) {
            if (line.contains(needle)) {
                String[] cells = line.split("\\|", -1);
                return cells.length > 2 ? cells[2].replaceAll("[" + java.util.regex.Pattern.quote(drop) + "]", "") : "";
            }
        }
        return "";
    }

    /** The second word of the first line starting with KEY (the drivers' "key value" summary lines); "" when none. */
    static String value(String text, String key) {
        for (String line : text.split("\n")) {
            String[] w = line.trim().split("\\s+");
            if (line.startsWith(key) && w[0].equals(key) && w.length > 1) {
                return w[1];
            }
        }
        return "";
    }
}
