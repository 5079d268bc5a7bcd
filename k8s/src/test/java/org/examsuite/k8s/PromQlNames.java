package org.examsuite.k8s;

import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The metric names a PromQL expression reads (enough PromQL for our rules, scalers and dashboard). */
final class PromQlNames {

    private static final Set<String> KEYWORDS = Set.of("and", "or", "unless", "by", "without", "on", "ignoring",
            "group_left", "group_right", "offset", "bool", "inf", "nan");
    private static final Pattern IDENTIFIER = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");

    private PromQlNames() {
    }

    static Set<String> metricNames(String expr) {
        String s = expr
                .replaceAll("\"(\\\\.|[^\"\\\\])*\"", "\"\"")             // string literals
                .replaceAll("\\{[^}]*}", "")                               // label matchers
                .replaceAll("\\[[^]]*]", "")                               // range / subquery windows
                .replaceAll("\\b(by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)", " ")  // label lists
                .replaceAll("\\boffset\\s+\\w+", " ")                      // offset 30m
                .replaceAll("\\$\\{?\\w+}?", " ");                        // Grafana variables
        Set<String> names = new TreeSet<>();
        Matcher m = IDENTIFIER.matcher(s);
        while (m.find()) {
            String name = m.group();
            int next = m.end();
            while (next < s.length() && Character.isWhitespace(s.charAt(next))) {
                next++;
            }
            boolean function = next < s.length() && s.charAt(next) == '(';
            boolean number = m.start() > 0 && Character.isDigit(s.charAt(m.start() - 1));
            if (!function && !number && !KEYWORDS.contains(name.toLowerCase())) {
                names.add(name);
            }
        }
        return names;
    }
}
