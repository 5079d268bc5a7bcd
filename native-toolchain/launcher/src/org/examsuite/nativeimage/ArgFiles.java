package org.examsuite.nativeimage;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** {@code @file} arguments, read as the JDK's launchers read them: whitespace separated, quotes group, '#' comments. */
final class ArgFiles {

    private ArgFiles() {
    }

    static List<String> expand(List<String> args) {
        List<String> out = new ArrayList<>();
        for (String arg : args) {
            if (arg.startsWith("@") && !arg.startsWith("@@") && arg.length() > 1) {
                try {
                    out.addAll(expand(split(Files.readString(Path.of(arg.substring(1))))));
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot read argument file " + arg.substring(1), e);
                }
            } else {
                out.add(arg.startsWith("@@") ? arg.substring(1) : arg);
            }
        }
        return out;
    }

    static List<String> split(String text) {
        List<String> out = new ArrayList<>();
        StringBuilder current = null;
        char quote = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else if (c == '\\' && i + 1 < text.length()) {
                    current.append(text.charAt(++i));
                } else {
                    current.append(c);
                }
            } else if (c == '"' || c == '\'') {
                quote = c;
                if (current == null) {
                    current = new StringBuilder();
                }
            } else if (c == '#' && current == null) {
                while (i < text.length() && text.charAt(i) != '\n') {
                    i++;
                }
            } else if (Character.isWhitespace(c)) {
                if (current != null) {
                    out.add(current.toString());
                    current = null;
                }
            } else {
                if (current == null) {
                    current = new StringBuilder();
                }
                current.append(c);
            }
        }
        if (current != null) {
            out.add(current.toString());
        }
        return out;
    }
}
