package org.examsuite.tools.images;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * JSON as jq -c writes it (no blanks, keys in insertion order, jq's escapes), so a config the
 * bash wrote and one written here are the same bytes; and a small reader for what registries
 * answer. Objects are LinkedHashMaps, arrays Lists, numbers Longs.
 */
final class Json {
    private Json() {
    }

    static String write(Object value) {
        StringBuilder out = new StringBuilder();
        write(value, out);
        return out.toString();
    }

    private static void write(Object value, StringBuilder out) {
        if (value == null) {
            out.append("null");
        } else if (value instanceof String s) {
            string(s, out);
        } else if (value instanceof Number || value instanceof Boolean) {
            out.append(value);
        } else if (value instanceof Map<?, ?> map) {
            out.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> e : map.entrySet()) {
                if (!first) {
                    out.append(',');
                }
                first = false;
                string(e.getKey().toString(), out);
                out.append(':');
                write(e.getValue(), out);
            }
            out.append('}');
        } else if (value instanceof List<?> list) {
            out.append('[');
            for (int i = 0; i < list.size(); i++) {
                if (i > 0) {
                    out.append(',');
                }
                write(list.get(i), out);
            }
            out.append(']');
        } else {
            throw new IllegalArgumentException("not JSON: " + value.getClass());
        }
    }

    // jq's escapes: the short ones, \\u00xx (lower case) for other control characters and DEL.
    private static void string(String s, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\t' -> out.append("\\t");
                case '\r' -> out.append("\\r");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                default -> {
                    if (c < 0x20 || c == 0x7f) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }

    static Object parse(String text) {
        Reader reader = new Reader(text);
        Object value = reader.value();
        reader.blanks();
        if (reader.at < text.length()) {
            throw new IllegalArgumentException("trailing characters in JSON at " + reader.at);
        }
        return value;
    }

    /** OBJECT's member at PATH (keys), null when absent. */
    static Object at(Object object, String... path) {
        Object now = object;
        for (String key : path) {
            if (!(now instanceof Map<?, ?> map)) {
                return null;
            }
            now = map.get(key);
        }
        return now;
    }

    private static final class Reader {
        private final String s;
        private int at;

        Reader(String s) {
            this.s = s;
        }

        void blanks() {
            while (at < s.length() && Character.isWhitespace(s.charAt(at))) {
                at++;
            }
        }

        Object value() {
            blanks();
            if (at >= s.length()) {
                throw new IllegalArgumentException("JSON ends early");
            }
            char c = s.charAt(at);
            if (c == '{') {
                Map<String, Object> map = new LinkedHashMap<>();
                at++;
                blanks();
                if (s.charAt(at) == '}') {
                    at++;
                    return map;
                }
                while (true) {
                    blanks();
                    String key = text();
                    blanks();
                    expect(':');
                    map.put(key, value());
                    blanks();
                    if (s.charAt(at) == ',') {
                        at++;
                    } else {
                        expect('}');
                        return map;
                    }
                }
            }
            if (c == '[') {
                List<Object> list = new ArrayList<>();
                at++;
                blanks();
                if (s.charAt(at) == ']') {
                    at++;
                    return list;
                }
                while (true) {
                    list.add(value());
                    blanks();
                    if (s.charAt(at) == ',') {
                        at++;
                    } else {
                        expect(']');
                        return list;
                    }
                }
            }
            if (c == '"') {
                return text();
            }
            for (String word : new String[] {"true", "false", "null"}) {
                if (s.startsWith(word, at)) {
                    at += word.length();
                    return word.equals("null") ? null : Boolean.valueOf(word);
                }
            }
            int start = at;
            while (at < s.length() && "+-0123456789.eE".indexOf(s.charAt(at)) >= 0) {
                at++;
            }
            String number = s.substring(start, at);
            if (number.isEmpty()) {
                throw new IllegalArgumentException("unexpected '" + c + "' in JSON at " + start);
            }
            return number.matches("-?\\d+") ? (Object) Long.valueOf(number) : (Object) Double.valueOf(number);
        }

        private void expect(char c) {
            if (at >= s.length() || s.charAt(at) != c) {
                throw new IllegalArgumentException("expected '" + c + "' in JSON at " + at);
            }
            at++;
        }

        private String text() {
            expect('"');
            StringBuilder out = new StringBuilder();
            while (true) {
                char c = s.charAt(at++);
                if (c == '"') {
                    return out.toString();
                }
                if (c != '\\') {
                    out.append(c);
                    continue;
                }
                char e = s.charAt(at++);
                switch (e) {
                    case 'n' -> out.append('\n');
                    case 't' -> out.append('\t');
                    case 'r' -> out.append('\r');
                    case 'b' -> out.append('\b');
                    case 'f' -> out.append('\f');
                    case 'u' -> {
                        out.append((char) Integer.parseInt(s.substring(at, at + 4), 16));
                        at += 4;
                    }
                    default -> out.append(e);
                }
            }
        }
    }
}
