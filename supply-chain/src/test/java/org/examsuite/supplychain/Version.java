package org.examsuite.supplychain;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Orders the version strings of Maven and npm the way both mean them, as far as advisories' ranges need: numbers
 * compare as numbers, a pre-release qualifier (alpha, beta, milestone, rc, snapshot, or any other word) comes before the
 * release it qualifies, and a release marker (Final, GA, RELEASE, a build suffix after "+") is the release itself.
 */
final class Version {
    private static final List<String> PRE_RELEASES = List.of("alpha", "a", "beta", "b", "milestone", "m", "rc", "cr", "snapshot");
    private static final Set<String> RELEASE = Set.of("final", "ga", "release", "");

    private Version() {
    }

    /** Negative, zero or positive as A comes before, at or after B. */
    static int compare(String a, String b) {
        List<Object> x = tokens(a);
        List<Object> y = tokens(b);
        for (int i = 0; i < Math.max(x.size(), y.size()); i++) {
            Object p = i < x.size() ? x.get(i) : null;
            Object q = i < y.size() ? y.get(i) : null;
            int c = compareToken(p, q);
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }

    /** Numbers as Long, words lower-case; release markers and a "+build" suffix dropped. */
    static List<Object> tokens(String version) {
        String v = version.toLowerCase(Locale.ROOT).strip();
        int plus = v.indexOf('+');
        if (plus >= 0) {
            v = v.substring(0, plus);
        }
        List<Object> tokens = new ArrayList<>();
        for (String part : v.split("[.\\-_]")) {
            // "beta9" is a word and a number; "1rc1" too
            for (String piece : part.split("(?<=\\d)(?=\\D)|(?<=\\D)(?=\\d)")) {
                if (piece.isEmpty() || RELEASE.contains(piece)) {
                    continue;
                }
                tokens.add(piece.chars().allMatch(Character::isDigit) ? (Object) Long.parseLong(piece) : piece);
            }
        }
        // 1.0.0 is 1, and 1.0-rc1 is 1-rc1: zeros end the numeric part as nothing at all
        int word = 0;
        while (word < tokens.size() && tokens.get(word) instanceof Long) {
            word++;
        }
        int end = word;
        while (end > 0 && tokens.get(end - 1) instanceof Long n && n == 0) {
            end--;
        }
        tokens.subList(end, word).clear();
        while (!tokens.isEmpty() && tokens.get(tokens.size() - 1) instanceof Long n && n == 0) {
            tokens.remove(tokens.size() - 1);
        }
        return tokens;
    }

    private static int compareToken(Object p, Object q) {
        if (p == null && q == null) {
            return 0;
        }
        if (p == null) { // the shorter one: before a number (1 < 1.1), after a pre-release (1-rc1 < 1)
            return q instanceof Long ? -1 : 1;
        }
        if (q == null) {
            return p instanceof Long ? 1 : -1;
        }
        if (p instanceof Long m && q instanceof Long n) {
            return Long.compare(m, n);
        }
        if (p instanceof Long) { // 1.1 > 1-beta
            return 1;
        }
        if (q instanceof Long) {
            return -1;
        }
        int i = PRE_RELEASES.indexOf(p);
        int j = PRE_RELEASES.indexOf(q);
        if (i >= 0 && j >= 0) {
            return Integer.compare(rank(i), rank(j));
        }
        return ((String) p).compareTo((String) q);
    }

    /** alpha=a, beta=b, milestone=m, rc=cr share a rank. */
    private static int rank(int index) {
        return switch (PRE_RELEASES.get(index)) {
            case "alpha", "a" -> 0;
            case "beta", "b" -> 1;
            case "milestone", "m" -> 2;
            case "rc", "cr" -> 3;
            default -> 4;
        };
    }
}
