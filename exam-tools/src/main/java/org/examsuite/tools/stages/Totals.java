package org.examsuite.tools.stages;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/** What the tests of a run counted: Surefire's reports and node's test runner summaries. */
public record Totals(long passed, long failed, long skipped) {
    private static final Pattern SUITE = Pattern.compile("<testsuite\\s[^>]*>");
    /** A test case's outcome element when it did not pass (Surefire: failure for assertions, error otherwise). */
    private static final Pattern FAILURE = Pattern.compile("<(failure|error)(\\s[^>]*)?/?>");
    /** A failed first try of a test that passed when run again (rerunFailingTestsCount): counted as passed. */
    private static final Pattern FLAKE = Pattern.compile("<(flakyFailure|flakyError)(\\s[^>]*)?/?>");

    public Totals plus(Totals other) {
        return new Totals(passed + other.passed, failed + other.failed, skipped + other.skipped);
    }

    @Override
    public String toString() {
        return passed + " passed, " + failed + " failed, " + skipped + " skipped";
    }

    /** What the Surefire reports (texts of {@link #reports}) counted. */
    public static Totals junit(List<String> reports) {
        long tests = 0;
        long failed = 0;
        long skipped = 0;
        for (String report : reports) {
            Matcher m = SUITE.matcher(report);
            if (m.find()) {
                String tag = m.group();
                tests += attr(tag, "tests");
                failed += attr(tag, "failures") + attr(tag, "errors");
                skipped += attr(tag, "skipped");
            }
        }
        return new Totals(tests - failed - skipped, failed, skipped);
    }

    /**
     * The tests that failed in the same reports, as "Class.method: message" (the message's first line, cut at 200
     * characters): the summary names them, so that a run's tail alone says what to look at.
     */
    public static List<String> failedTests(List<String> reports) {
        return testsWith(FAILURE, reports);
    }

    /** The tests that failed once and passed when run again, named the same way: they pass, and still want a look. */
    public static List<String> flakyTests(List<String> reports) {
        return testsWith(FLAKE, reports);
    }

    private static List<String> testsWith(Pattern outcomePattern, List<String> reports) {
        List<String> names = new ArrayList<>();
        for (String report : reports) {
            String[] cases = report.split("<testcase\\s");
            for (int i = 1; i < cases.length; i++) {
                String testCase = " " + cases[i]; // the split took the blank before its first attribute
                Matcher outcome = outcomePattern.matcher(testCase);
                if (!outcome.find()) {
                    continue;
                }
                String message = unescape(attrText(outcome.group(), "message")).lines().findFirst().orElse("");
                String name = shortClass(attrText(testCase, "classname")) + "." + attrText(testCase, "name");
                names.add(message.isEmpty() ? name : name + ": " + cut(message, 200));
            }
        }
        return names;
    }

    /** The texts of the Surefire reports (target/surefire-reports/TEST-*.xml) under HOME written after SINCE: read once. */
    public static List<String> reports(Path home, FileTime since) {
        List<String> texts = new ArrayList<>();
        try (Stream<Path> files = Files.walk(home)) {
            List<Path> reports = files.filter(p -> p.getFileName().toString().startsWith("TEST-")
                    && p.getFileName().toString().endsWith(".xml") && p.getParent() != null
                    && p.getParent().getFileName().toString().equals("surefire-reports")
                    && p.toString().contains("/target/") && !p.toString().contains("/node_modules/")).sorted().toList();
            for (Path report : reports) {
                try {
                    if (Files.getLastModifiedTime(report).compareTo(since) > 0) {
                        texts.add(Files.readString(report, StandardCharsets.ISO_8859_1));
                    }
                } catch (IOException e) {
                    // a report that vanished meanwhile (a build elsewhere cleaning target/)
                }
            }
        } catch (IOException | java.io.UncheckedIOException e) {
            // a directory that vanished during the walk: the reports read still count
        }
        return texts;
    }

    private static String attrText(String tag, String name) {
        Matcher m = Pattern.compile("\\s" + name + "=\"([^\"]*)\"").matcher(tag);
        return m.find() ? m.group(1) : "";
    }

    private static String shortClass(String className) {
        return className.substring(className.lastIndexOf('.') + 1);
    }

    private static String unescape(String xml) {
        return xml.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&apos;", "'")
                .replace("&#10;", "\n").replace("&amp;", "&");
    }

    private static String cut(String text, int max) {
        return text.length() <= max ? text : text.substring(0, max) + "…";
    }

    static long attr(String tag, String name) {
        Matcher m = Pattern.compile("\\s" + name + "=\"([0-9]+)\"").matcher(tag);
        return m.find() ? Long.parseLong(m.group(1)) : 0;
    }

    /** node --test's summaries ("ℹ pass N", "# fail N", ...) in LOGS written after SINCE. */
    public static Totals node(List<Path> logs, FileTime since) {
        long passed = 0;
        long failed = 0;
        long skipped = 0;
        for (Path log : logs) {
            try {
                if (!Files.isRegularFile(log) || Files.getLastModifiedTime(log).compareTo(since) <= 0) {
                    continue;
                }
                for (String line : Files.readAllLines(log, StandardCharsets.ISO_8859_1)) {
                    String[] f = line.strip().split("\\s+");
                    if (f.length < 3 || !f[2].matches("[0-9]+")) {
                        continue;
                    }
                    long n = Long.parseLong(f[2]);
                    switch (f[1]) {
                        case "pass" -> passed += n;
                        case "fail" -> failed += n;
                        case "skipped", "todo" -> skipped += n;
                        default -> {
                        }
                    }
                }
            } catch (IOException e) {
                // unreadable log: counts nothing
            }
        }
        return new Totals(passed, failed, skipped);
    }
}
