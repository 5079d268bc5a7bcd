package org.examsuite.session.exam.content;

import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.commonmark.node.Code;
import org.commonmark.node.HtmlBlock;
import org.commonmark.node.HtmlInline;
import org.commonmark.node.Image;
import org.commonmark.node.Link;
import org.commonmark.node.Node;
import org.commonmark.node.Text;
import org.commonmark.parser.Parser;
import org.commonmark.renderer.html.HtmlRenderer;
import org.owasp.html.HtmlChangeListener;
import org.owasp.html.HtmlPolicyBuilder;
import org.owasp.html.PolicyFactory;

/**
 * The rules of {@code "format": "markdown"} (docs/api.md §4.5): CommonMark with LaTeX formulas
 * and fenced code, no raw HTML, images only of the exam's own figures and with alt text
 * ({@code ![what it shows](figure:<id>)}), links to http(s) and mailto only, formulas without
 * macro definitions or trust-requiring commands. The text is parsed, walked, rendered to HTML and
 * that HTML is run through the OWASP sanitizer under the policy of what the page may show: a
 * text the sanitizer would change is refused, so what is stored is what the operator wrote and
 * every consumer renders it the same way.
 */
@ApplicationScoped
@RegisterForReflection(classNames = "org.owasp.shim.ForJava9AndLater") // the sanitizer picks its shim by name
public class MarkdownPolicy {
    /** One formula's TeX; KaTeX's own maxExpand/maxSize on the page bound what it costs to draw. */
    public static final int MAX_FORMULA_CHARS = 4000;
    /** The parser opens no more nested blocks, nor nested inlines, than this: deeper markers stay text. */
    public static final int MAX_NESTING = 16;
    /** A tree deeper than both limits together cannot come from the parser; refused, not walked, if it did. */
    private static final int MAX_DEPTH = 2 * MAX_NESTING + 4;
    /** Commands that define or rewrite macros (the macro bombs), or need KaTeX's trust. */
    private static final Set<String> REFUSED_COMMANDS = Set.of("def", "gdef", "edef", "xdef", "let", "futurelet",
            "global", "long", "newcommand", "renewcommand", "providecommand", "expandafter", "noexpand", "csname",
            "href", "url", "includegraphics", "htmlClass", "htmlId", "htmlStyle", "htmlData");
    private static final Pattern SAFE_URL = Pattern.compile("(?i)(https?://|mailto:)[^\\s]*");
    /** A figure's reference: {@code figure:} and the SHA-256 it is stored by (authoring/Figure). */
    public static final Pattern FIGURE = Pattern.compile("figure:([0-9a-f]{64})");

    private final Parser parser;
    private final HtmlRenderer renderer;
    private final PolicyFactory policy;

    MarkdownPolicy() {
        parser = Parser.builder()
                .customInlineContentParserFactory(new MathInlineParser.Factory())
                .maxOpenBlockParsers(MAX_NESTING)
                .maxInlineNesting(MAX_NESTING)
                .build();
        renderer = HtmlRenderer.builder()
                .nodeRendererFactory(MathHtmlRenderer::new)
                .build();
        policy = new HtmlPolicyBuilder()
                .allowElements("p", "br", "hr", "em", "strong", "code", "pre", "blockquote", "ul", "ol", "li",
                        "h1", "h2", "h3", "h4", "h5", "h6", "a", "span", "img")
                .allowUrlProtocols("http", "https", "mailto", "figure")
                .allowAttributes("href").onElements("a")
                .allowAttributes("src").matching(FIGURE).onElements("img")
                .allowAttributes("alt", "title").onElements("img")
                .allowAttributes("start").matching(Pattern.compile("[0-9]{1,9}")).onElements("ol")
                .allowAttributes("class").matching(Pattern.compile("math-inline|math-display")).onElements("span")
                .allowAttributes("class").matching(Pattern.compile("language-[A-Za-z0-9_+#.-]{1,40}")).onElements("code")
                .toFactory();
    }

    /** What is wrong with {@code markdown}, empty when it may be stored; FIGURES: the ids of the exam's figures. */
    public List<ContentFinding> check(String markdown, Set<String> figures) {
        List<ContentFinding> findings = new ArrayList<>();
        Node document = parser.parse(markdown);
        walk(document, figures, findings);
        if (findings.isEmpty()) {
            sanitize(renderer.render(document), findings);
        }
        return findings;
    }

    /** The tree, iteratively (a nesting bomb must not cost stack): raw HTML, images, links, formulas, depth. */
    private void walk(Node document, Set<String> figures, List<ContentFinding> findings) {
        record At(Node node, int depth) {
        }
        Deque<At> todo = new ArrayDeque<>();
        todo.push(new At(document, 0));
        while (!todo.isEmpty()) {
            At at = todo.pop();
            Node node = at.node();
            if (at.depth() > MAX_DEPTH) {
                findings.add(new ContentFinding("nested more than " + MAX_DEPTH + " levels deep"));
                return;
            }
            if (node instanceof HtmlInline || node instanceof HtmlBlock) {
                findings.add(new ContentFinding("raw HTML is not allowed in Markdown (write &lt; for a '<', or put code in backticks)"));
            } else if (node instanceof Image image) {
                checkFigure(image, figures, findings);
            } else if (node instanceof Link link && !SAFE_URL.matcher(link.getDestination()).matches()) {
                findings.add(new ContentFinding("links may only go to http:, https: or mailto: addresses"));
            } else if (node instanceof MathNode math) {
                checkFormula(math.tex(), findings);
            }
            for (Node child = node.getLastChild(); child != null; child = child.getPrevious()) {
                todo.push(new At(child, at.depth() + 1));
            }
        }
    }

    /** An image must show one of the exam's figures and say in its alt text what it shows. */
    private static void checkFigure(Image image, Set<String> figures, List<ContentFinding> findings) {
        Matcher figure = FIGURE.matcher(image.getDestination());
        if (!figure.matches()) {
            findings.add(new ContentFinding("images may only show a figure uploaded to the exam: ![what it shows](figure:<id>)"));
        } else if (!figures.contains(figure.group(1))) {
            findings.add(new ContentFinding("figure " + figure.group(1) + " is not one of the exam's figures (upload it to the draft)"));
        } else if (altText(image).isBlank()) {
            findings.add(new ContentFinding("a figure needs alt text saying what it shows: ![what it shows](figure:<id>)"));
        }
    }

    private static String altText(Node image) {
        StringBuilder alt = new StringBuilder();
        Deque<Node> todo = new ArrayDeque<>();
        todo.push(image);
        while (!todo.isEmpty()) {
            Node node = todo.pop();
            if (node instanceof Text text) {
                alt.append(text.getLiteral());
            } else if (node instanceof Code code) {
                alt.append(code.getLiteral());
            }
            for (Node child = node.getLastChild(); child != null; child = child.getPrevious()) {
                todo.push(child);
            }
        }
        return alt.toString();
    }

    private static void checkFormula(String tex, List<ContentFinding> findings) {
        if (tex.length() > MAX_FORMULA_CHARS) {
            findings.add(new ContentFinding("a formula is longer than " + MAX_FORMULA_CHARS + " characters"));
            return;
        }
        for (int i = 0; i < tex.length(); i++) {
            if (tex.charAt(i) != '\\') {
                continue;
            }
            int end = i + 1;
            while (end < tex.length() && Character.isLetter(tex.charAt(end))) {
                end++;
            }
            if (end == i + 1) {
                i++; // a control symbol such as \\ or \$: skip the character it takes
                continue;
            }
            String command = tex.substring(i + 1, end);
            if (REFUSED_COMMANDS.contains(command)) {
                findings.add(new ContentFinding("the formula command \\" + command + " is not allowed"
                        + (command.startsWith("html") || command.equals("href") || command.equals("url")
                                || command.equals("includegraphics") ? "" : " (no macro definitions)")));
                return;
            }
            i = end - 1;
        }
    }

    /** The rendered HTML against the page's policy: anything the sanitizer would drop is a finding. */
    private void sanitize(String html, List<ContentFinding> findings) {
        policy.sanitize(html, new HtmlChangeListener<List<ContentFinding>>() {
            @Override
            public void discardedTag(List<ContentFinding> context, String elementName) {
                context.add(new ContentFinding("the element <" + elementName.toLowerCase(Locale.ROOT) + "> is not allowed"));
            }

            @Override
            public void discardedAttributes(List<ContentFinding> context, String tagName, String... attributeNames) {
                context.add(new ContentFinding("the attribute(s) " + String.join(", ", attributeNames) + " of <"
                        + tagName.toLowerCase(Locale.ROOT) + "> are not allowed"
                        + ("code".equalsIgnoreCase(tagName) ? " (a code block's language is letters, digits and _+#.-)" : "")));
            }
        }, findings);
    }
}
