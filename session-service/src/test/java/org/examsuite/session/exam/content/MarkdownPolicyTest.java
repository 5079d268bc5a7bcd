package org.examsuite.session.exam.content;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The Markdown content policy on its own: what a rich question may hold, and the hostile texts it refuses. */
class MarkdownPolicyTest {
    private static final String FIGURE = "ab".repeat(32);

    private final MarkdownPolicy policy = new MarkdownPolicy();

    private List<String> findings(String markdown) {
        return policy.check(markdown, Set.of(FIGURE)).stream().map(ContentFinding::message).toList();
    }

    @Test
    void mathCodeAndFormattingAreKept() {
        String prompt = """
                # Quadratics

                Solve $x^2 - 5x + 6 = 0$ for **real** $x$, given

                $$x = \\frac{-b \\pm \\sqrt{b^2 - 4ac}}{2a}$$

                ```python
                def roots(a, b, c):
                    return (-b + (b*b - 4*a*c) ** 0.5) / (2*a)
                ```

                1. one `inline code` item
                2. a [link](https://example.org/docs?a=1&b=2) and <https://example.org>
                > a quote costs $5 and $6 (not math), \\$ is a dollar
                """;
        assertEquals(List.of(), findings(prompt));
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "<script>window.pwned = 1</script>",
            "hello <img src=x onerror=alert(1)>",
            "text <b onclick=\"x()\">bold</b>",
            "<svg><script>alert(1)</script></svg>",
            "<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>",
            "<style>body { display: none }</style>",
            "<iframe src=\"https://evil.example\"></iframe>",
            "<a href=\"https://example.org\">ok?</a>"})
    void rawHtmlIsRefused(String markdown) {
        assertTrue(findings(markdown).stream().anyMatch(f -> f.startsWith("raw HTML")), markdown + " → " + findings(markdown));
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "[click](javascript:alert(1))",
            "[click](JaVaScRiPt:alert(1))",
            "[click](data:text/html;base64,PHNjcmlwdD4=)",
            "[click](vbscript:msgbox)",
            "<javascript:alert(1)>",
            "[click](/relative/path)",
            "[ref]\n\n[ref]: javascript:alert(1)"})
    void unsafeLinksAreRefused(String markdown) {
        assertEquals(List.of("links may only go to http:, https: or mailto: addresses"), findings(markdown), markdown);
    }

    @Test
    void imagesShowOnlyTheExamsFiguresAndSayWhatTheyShow() {
        assertEquals(List.of("images may only show a figure uploaded to the exam: ![what it shows](figure:<id>)"),
                findings("![x](https://tracker.example/pixel.png)"));
        assertEquals(List.of(), findings("See ![a right triangle with sides 3, 4 and 5](figure:" + FIGURE + " \"the triangle\")."));
        assertEquals(List.of("a figure needs alt text saying what it shows: ![what it shows](figure:<id>)"),
                findings("![ ](figure:" + FIGURE + ")"));
        assertEquals(List.of("figure " + "1".repeat(64) + " is not one of the exam's figures (upload it to the draft)"),
                findings("![a graph](figure:" + "1".repeat(64) + ")"));
        assertEquals(List.of("images may only show a figure uploaded to the exam: ![what it shows](figure:<id>)"),
                findings("![a graph](figure:" + FIGURE.toUpperCase() + ")"));
        // a link to a figure is a link, refused as any other that is not http(s) or mailto
        assertEquals(List.of("links may only go to http:, https: or mailto: addresses"), findings("[see](figure:" + FIGURE + ")"));
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "$\\def\\a{\\b\\b}\\a$",
            "$$\\gdef\\x{1}$$",
            "$\\newcommand{\\x}[1]{#1#1}\\x{a}$",
            "$\\renewcommand\\frac{}$",
            "$\\let\\x\\y$",
            "$\\href{javascript:alert(1)}{x}$",
            "$\\htmlStyle{color:red}{x}$",
            "$\\url{https://evil.example}$"})
    void formulaCommandsThatDefineMacrosOrNeedTrustAreRefused(String markdown) {
        List<String> found = findings(markdown);
        assertEquals(1, found.size(), markdown + " → " + found);
        assertTrue(found.get(0).startsWith("the formula command"), found.toString());
    }

    @Test
    void escapedBackslashesAreNotCommands() {
        assertEquals(List.of(), findings("$a \\\\def b$")); // a line break, then the letters "def"
        assertEquals(List.of(), findings("`$\\def\\x{}$` in code is only text"));
    }

    @Test
    void aLongFormulaIsRefused() {
        assertEquals(List.of("a formula is longer than 4000 characters"), findings("$" + "x+".repeat(2500) + "x$"));
    }

    @Test
    void aCodeBlockLanguageWithMarkupIsRefusedByTheSanitizer() {
        List<String> found = findings("```\"><script>alert(1)</script>\ncode\n```");
        assertEquals(1, found.size(), found.toString());
        assertTrue(found.get(0).contains("of <code> are not allowed"), found.toString());
    }

    @Test
    void nestingBombsEndInAnAnswerNotAStackOverflow() {
        // the parser opens no blocks or inlines past the limit: the rest stays text
        assertEquals(List.of(), findings(">".repeat(10_000) + " deep"));
        assertEquals(List.of(), findings("- ".repeat(5_000) + "x"));
        assertEquals(List.of(), findings("*".repeat(5_000) + "x" + "*".repeat(5_000)));
        assertEquals(List.of(), findings("[".repeat(5_000) + "x" + "](https://a.example)".repeat(5_000)));
    }

    @Test
    void plainDollarsAreText() {
        assertEquals(List.of(), findings("It costs $5 and $ 6, or $x $ — none of these is math"));
    }
}
