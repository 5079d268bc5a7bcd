package org.examsuite.k8s;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The chart README's values table, made from the two files that define the values: values.yaml (each key, its
 * default and the comment right above it) and values.schema.json (its type). A key whose value is a map lists its
 * children (and gets a row of its own when it has a comment); lists and empty maps are one row.
 */
final class ValuesTable {
    private static final Pattern KEY = Pattern.compile("^( *)([A-Za-z][A-Za-z0-9_-]*):(?: (.*))?$");

    private ValuesTable() {
    }

    static String markdown(String valuesYaml, JsonNode schema) {
        StringBuilder out = new StringBuilder("| value | type | default | what it is |\n|---|---|---|---|\n");
        List<String> path = new ArrayList<>();
        List<Integer> indents = new ArrayList<>();
        List<String> comment = new ArrayList<>();
        String[] lines = valuesYaml.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            String trimmed = line.strip();
            if (trimmed.startsWith("#")) {
                comment.add(trimmed.replaceFirst("^#+ ?", ""));
                continue;
            }
            Matcher m = KEY.matcher(line);
            if (!m.matches()) {
                if (trimmed.isEmpty()) {
                    comment.clear();
                }
                continue; // list items and continuation lines belong to the key above
            }
            int indent = m.group(1).length();
            while (!indents.isEmpty() && indents.get(indents.size() - 1) >= indent) {
                indents.remove(indents.size() - 1);
                path.remove(path.size() - 1);
            }
            path.add(m.group(2));
            indents.add(indent);
            String value = m.group(3) == null ? "" : stripComment(m.group(3));
            boolean parent = value.isEmpty() && i + 1 < lines.length && childFollows(lines, i + 1, indent);
            String key = String.join(".", path);
            if (!parent) {
                String shown = value.isEmpty() ? "(list)" : value;
                out.append("| `").append(key).append("` | ").append(type(schema, path)).append(" | `")
                        .append(cell(shown)).append("` | ").append(cell(String.join(" ", comment))).append(" |\n");
            } else if (!comment.isEmpty()) { // a section's own comment: a row of its own, its keys below it
                out.append("| `").append(key).append("` | ").append(type(schema, path)).append(" | (the keys below) | ")
                        .append(cell(String.join(" ", comment))).append(" |\n");
            }
            comment.clear();
        }
        return out.toString();
    }

    /** Whether the next key line is indented deeper than INDENT (a map), rather than a list or a sibling. */
    private static boolean childFollows(String[] lines, int from, int indent) {
        for (int j = from; j < lines.length; j++) {
            String next = lines[j];
            if (next.isBlank() || next.strip().startsWith("#")) {
                continue;
            }
            Matcher m = KEY.matcher(next);
            return m.matches() && m.group(1).length() > indent;
        }
        return false;
    }

    private static String type(JsonNode schema, List<String> path) {
        JsonNode node = schema;
        for (String key : path) {
            node = node.path("properties").path(key);
        }
        if (node.has("type")) {
            return node.get("type").isArray() ? node.get("type").toString().replaceAll("[\\[\\]\"]", "").replace(",", " or ")
                    : node.get("type").asText();
        }
        return node.has("enum") ? "one of " + node.get("enum").toString().replaceAll("[\\[\\]\"]", "").replace(",", ", ") : "";
    }

    private static String stripComment(String value) {
        String v = value.strip();
        if (!v.startsWith("\"") && !v.startsWith("'")) {
            int hash = v.indexOf(" #");
            if (hash >= 0) {
                v = v.substring(0, hash).strip();
            }
        }
        return v;
    }

    private static String cell(String text) {
        return text.replace("|", "\\|").replace("`", "'");
    }
}
