package org.examsuite.session.exam.content;

import java.util.Set;
import org.commonmark.parser.beta.InlineContentParser;
import org.commonmark.parser.beta.InlineContentParserFactory;
import org.commonmark.parser.beta.InlineParserState;
import org.commonmark.parser.beta.ParsedInline;
import org.commonmark.parser.beta.Position;
import org.commonmark.parser.beta.Scanner;

/**
 * The math delimiters, the same rules as the page's markdown-it plugin (exam-client/page/content.js):
 * {@code $$…$$} is display math (may span lines of one paragraph); {@code $…$} is inline math when
 * the opening {@code $} is not followed by a space, the closing one not preceded by a space nor
 * followed by a digit ({@code $5 and $6} stay text). Inside a formula a backslash takes the next
 * character with it ({@code \$} does not close it); outside, {@code \$} is a literal dollar.
 */
final class MathInlineParser implements InlineContentParser {

    static final class Factory implements InlineContentParserFactory {
        @Override
        public Set<Character> getTriggerCharacters() {
            return Set.of('$');
        }

        @Override
        public InlineContentParser create() {
            return new MathInlineParser();
        }
    }

    @Override
    public ParsedInline tryParse(InlineParserState state) {
        Scanner scanner = state.scanner();
        Position start = scanner.position();
        boolean display = scanner.next("$$");
        if (!display) {
            scanner.next(); // the one '$'
            int first = scanner.peekCodePoint();
            if (first == Scanner.END || Character.isWhitespace(first) || first == '$') {
                scanner.setPosition(start);
                return ParsedInline.none();
            }
        }
        Position contentStart = scanner.position();
        StringBuilder tex = new StringBuilder();
        while (scanner.hasNext()) {
            char c = scanner.peek();
            if (c == '\\') {
                scanner.next();
                tex.append(c);
                if (scanner.hasNext()) {
                    tex.append(scanner.peek());
                    scanner.next();
                }
                continue;
            }
            if (c == '$') {
                if (display) {
                    if (scanner.next("$$") && !tex.toString().isBlank()) {
                        return ParsedInline.of(new MathNode(source(scanner, contentStart, 2), true), scanner.position());
                    }
                    break;
                }
                int before = tex.isEmpty() ? ' ' : tex.codePointBefore(tex.length());
                scanner.next();
                int after = scanner.peekCodePoint();
                if (!Character.isWhitespace(before) && !(after >= '0' && after <= '9')) {
                    return ParsedInline.of(new MathNode(source(scanner, contentStart, 1), false), scanner.position());
                }
                break;
            }
            tex.append(c == '\0' ? '\uFFFD' : c);
            scanner.next();
        }
        scanner.setPosition(start);
        return ParsedInline.none();
    }

    /** The formula's source between the delimiters, line breaks kept. */
    private static String source(Scanner scanner, Position contentStart, int closing) {
        String text = scanner.getSource(contentStart, scanner.position()).getContent();
        return text.substring(0, text.length() - closing);
    }
}
