package org.examsuite.k8s;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The repository stands alone (issue 22): no file refers to documents outside it — the public
 * contract is docs/api.md — and every relative link of its Markdown files names a file inside
 * the repository that exists. A user who clones it gets everything the files point to.
 */
class SelfContainedRepositoryTest {

    /**
     * What points outside: the sibling directory the design lived in, the design document and
     * its smoke script. Built from pieces so that this file itself does not match (and a
     * `git grep` for the same names lists only files that really refer outside).
     */
    static final Pattern OUTSIDE = Pattern.compile(String.join("|",
            "(?<![\\w-])" + "shared" + "/",
            "DESIGN" + "\\.md",
            "contract-smoke" + "\\.py"));

    /** Inline links `[text](target "title")` and reference definitions `[id]: target`. */
    private static final Pattern INLINE_LINK = Pattern.compile("\\[[^\\]]*\\]\\(\\s*<?([^)\\s>]+)>?(?:\\s+\"[^\"]*\")?\\s*\\)");
    private static final Pattern REFERENCE_LINK = Pattern.compile("(?m)^ {0,3}\\[[^\\]]+\\]:\\s*<?(\\S+?)>?(?:\\s|$)");
    private static final Pattern SCHEME = Pattern.compile("^[A-Za-z][A-Za-z0-9+.-]*:");
    private static final Pattern FENCED_CODE = Pattern.compile("(?ms)^\\s*```.*?^\\s*```");
    private static final Pattern INLINE_CODE = Pattern.compile("`[^`\\n]*`");

    /** Never the repository's own files: build output, dependencies, the local suite's state. */
    private static final Set<String> SKIPPED_DIRECTORIES = Set.of(".git", "target", "node_modules", ".exam");

    static final Path ROOT = repositoryRoot();

    @Test
    void noFileRefersToDocumentsOutsideTheRepository() {
        List<String> found = new ArrayList<>();
        for (String file : files()) {
            String text = text(file);
            if (text == null) {
                continue;
            }
            String[] lines = text.split("\n", -1);
            for (int i = 0; i < lines.length; i++) {
                Matcher m = OUTSIDE.matcher(lines[i]);
                if (m.find()) {
                    found.add(file + ":" + (i + 1) + ": " + lines[i].strip());
                }
            }
        }
        assertEquals(List.of(), found, "files that refer to documents outside the repository (point to "
                + "docs/api.md §N, docs/ARCHITECTURE.md or another file of the repository instead)");
    }

    @Test
    void markdownLinksNameFilesInsideTheRepository() {
        List<String> broken = new ArrayList<>();
        List<String> markdown = files().stream().filter(f -> f.endsWith(".md")).toList();
        assertTrue(markdown.contains("README.md") && markdown.contains("docs/api.md"), "the walk found " + markdown);
        for (String file : markdown) {
            String text = text(file);
            if (text == null) {
                continue;
            }
            // Links shown as code are examples, not links.
            String prose = INLINE_CODE.matcher(FENCED_CODE.matcher(text).replaceAll("")).replaceAll("");
            for (Pattern pattern : List.of(INLINE_LINK, REFERENCE_LINK)) {
                Matcher m = pattern.matcher(prose);
                while (m.find()) {
                    String problem = problem(file, m.group(1));
                    if (problem != null) {
                        broken.add(file + ": (" + m.group(1) + ") " + problem);
                    }
                }
            }
        }
        assertEquals(List.of(), broken, "Markdown links that leave the repository or name no file");
    }

    /** Null when {@code target}, linked from {@code file}, is a URL, an anchor or an existing file of the repository. */
    static String problem(String file, String target) {
        if (SCHEME.matcher(target).find() || target.startsWith("#")) {
            return null;
        }
        String path = target.replaceAll("[#?].*$", "");
        if (path.isEmpty()) {
            return null;
        }
        if (path.startsWith("/")) {
            return "absolute path";
        }
        Path resolved = ROOT.resolve(file).getParent().resolve(URLDecoder.decode(path, StandardCharsets.UTF_8)).normalize();
        if (!resolved.startsWith(ROOT)) {
            return "outside the repository";
        }
        return Files.exists(resolved) ? null : "no such file";
    }

    /** A sentence saying that something is published, shipped or released, or ships something. */
    private static final Pattern CLAIM = Pattern.compile("(?i)\\b(?:is|are|was|were|been|gets?)\\s+(?:published|shipped|released)\\b|\\bships\\b");
    private static final String CLAIMS = "docs/claims.md";
    private static final Pattern CLAIM_ROW = Pattern.compile("(?m)^\\| ([^|]+?) \\| ([^|]+?) \\| (.+) \\|$");
    private static final Pattern NAMED = Pattern.compile("`([^`]+)`");

    /** The documentation read for claims: the READMEs and docs/ (not the benchmark history, which records, nor the claims). */
    private static boolean documentation(String file) {
        return file.endsWith(".md") && !file.equals(CLAIMS) && !file.equals("docs/benchmarks.md") && !file.endsWith("CHANGELOG.md")
                && (file.startsWith("docs/") || file.endsWith("README.md")) && !file.contains("/results/");
    }

    /** Markdown as prose: code blocks and inline code left out, whitespace collapsed (claims may span lines). */
    static String prose(String markdown) {
        return INLINE_CODE.matcher(FENCED_CODE.matcher(markdown).replaceAll(" ")).replaceAll("").replaceAll("\\s+", " ");
    }

    @Test
    void everyPublishedOrShippedClaimOfTheDocsNamesItsProof() {
        Map<String, List<String>> rows = new TreeMap<>();
        List<String> problems = new ArrayList<>();
        Matcher row = CLAIM_ROW.matcher(text(CLAIMS));
        while (row.find()) {
            if (row.group(1).equals("file") || row.group(1).startsWith("---")) {
                continue;
            }
            rows.computeIfAbsent(row.group(1), f -> new ArrayList<>()).add(prose(row.group(2)).strip());
            Matcher named = NAMED.matcher(row.group(3));
            boolean proved = false;
            while (named.find()) {
                String name = named.group(1);
                proved |= Files.exists(ROOT.resolve(name)) || files().stream().anyMatch(f -> f.endsWith("/" + name + ".java") || f.endsWith("/" + name));
            }
            if (!proved && !row.group(3).contains("not a claim") && !row.group(3).contains("not the suite's")) {
                problems.add(CLAIMS + ": '" + row.group(2) + "' names no file or class of this repository as its proof");
            }
        }
        for (String file : files()) {
            if (!documentation(file)) {
                continue;
            }
            String prose = prose(text(file));
            List<String> words = rows.getOrDefault(file, List.of());
            Matcher claim = CLAIM.matcher(prose);
            while (claim.find()) {
                int at = claim.start();
                boolean listed = words.stream().anyMatch(w -> {
                    for (int i = prose.indexOf(w); i >= 0; i = prose.indexOf(w, i + 1)) {
                        if (i <= at && claim.end() <= i + w.length()) {
                            return true;
                        }
                    }
                    return false;
                });
                if (!listed) {
                    problems.add(file + ": '..." + prose.substring(Math.max(0, at - 60), Math.min(prose.length(), claim.end() + 40))
                            + "...' has no row in " + CLAIMS + " naming its proof");
                }
            }
            for (String w : words) {
                if (!prose.contains(w)) {
                    problems.add(CLAIMS + ": '" + w + "' is no longer in " + file);
                }
            }
        }
        for (String file : rows.keySet()) {
            if (!Files.isRegularFile(ROOT.resolve(file))) {
                problems.add(CLAIMS + ": no such file " + file);
            }
        }
        assertEquals(List.of(), problems, "claims of the docs and their proofs (" + CLAIMS + ")");
    }

    /** The tracked files (git ls-files), or, without git, every file below the root but the skipped directories. */
    static List<String> files() {
        List<String> tracked = gitLsFiles();
        List<String> files = new ArrayList<>();
        if (tracked != null) {
            for (String file : tracked) {
                boolean skipped = Stream.of(file.split("/")).anyMatch(SKIPPED_DIRECTORIES::contains);
                if (!skipped && Files.isRegularFile(ROOT.resolve(file))) {
                    files.add(file);
                }
            }
            return files;
        }
        try (Stream<Path> walk = Files.walk(ROOT)) {
            walk.filter(Files::isRegularFile)
                    .map(p -> ROOT.relativize(p).toString().replace('\\', '/'))
                    .filter(f -> Stream.of(f.split("/")).noneMatch(SKIPPED_DIRECTORIES::contains))
                    .sorted()
                    .forEach(files::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return files;
    }

    private static List<String> gitLsFiles() {
        try {
            Process git = new ProcessBuilder("git", "-C", ROOT.toString(), "ls-files", "-z")
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            byte[] out = git.getInputStream().readAllBytes();
            if (!git.waitFor(60, TimeUnit.SECONDS) || git.exitValue() != 0) {
                return null;
            }
            List<String> files = new ArrayList<>();
            for (String name : new String(out, StandardCharsets.UTF_8).split("\0")) {
                if (!name.isEmpty()) {
                    files.add(name);
                }
            }
            return files.isEmpty() ? null : files;
        } catch (IOException e) {
            return null; // no git: walk the tree instead
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /** The file as text; null for binary files (a NUL byte in the first 8 KiB). */
    private static String text(String file) {
        try {
            byte[] bytes = Files.readAllBytes(ROOT.resolve(file));
            for (int i = 0; i < Math.min(bytes.length, 8192); i++) {
                if (bytes[i] == 0) {
                    return null;
                }
            }
            return new String(bytes, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The k8s module's parent: where mvnw and the root pom are. */
    private static Path repositoryRoot() {
        Path root = K8sDir.ROOT.getParent();
        if (root == null || !Files.isRegularFile(root.resolve("mvnw")) || !Files.isDirectory(root.resolve("docs"))) {
            throw new IllegalStateException("not the repository root: " + root + " (k8s.dir = " + K8sDir.ROOT + ")");
        }
        return root;
    }
}
