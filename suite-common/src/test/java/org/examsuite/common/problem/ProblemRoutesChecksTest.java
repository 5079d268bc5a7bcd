package org.examsuite.common.problem;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.SplittableRandom;
import java.util.regex.Pattern;
import org.examsuite.common.redis.RedisKeys;
import org.junit.jupiter.api.Test;

/**
 * The hand-written checks every request passes (ProblemRoutes' bearer shape and URI, RedisKeys'
 * ids) answer as the regular expressions and java.net.URI they replace, on random inputs.
 */
class ProblemRoutesChecksTest {
    private static final Pattern JWS_COMPACT = Pattern.compile("[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]*");
    private static final Pattern SAFE_ID = Pattern.compile("[A-Za-z0-9._:@-]{1,128}");
    /** The characters of interest plus a few outsiders (space, braces, %, non-ASCII). */
    private static final String ALPHABET = "aZ09_-.:@/~?=&% {}\u00e9+";

    private static String random(SplittableRandom random, int maxLength) {
        StringBuilder s = new StringBuilder();
        int length = random.nextInt(0, maxLength + 1);
        for (int i = 0; i < length; i++) {
            s.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
        }
        return s.toString();
    }

    @Test
    void theBearerShapeIsTheRegularExpressions() {
        SplittableRandom random = new SplittableRandom(20261203);
        for (int n = 0; n < 200_000; n++) {
            String token = random(random, 12);
            assertEquals(JWS_COMPACT.matcher(token).matches(), ProblemRoutes.isJwsCompact(token), token);
        }
        for (String token : new String[] {"a.b.c", "a.b.", "a.b", ".b.c", "a..c", "a.b.c.d", "", "...", "eyJ.eyJ.sig_-09"}) {
            assertEquals(JWS_COMPACT.matcher(token).matches(), ProblemRoutes.isJwsCompact(token), token);
        }
        assertTrue(ProblemRoutes.wellFormedBearer("Bearer a.b.c"));
        assertFalse(ProblemRoutes.wellFormedBearer("Bearer .."));
        assertTrue(ProblemRoutes.wellFormedBearer("Basic dXNlcjpwYXNz")); // other schemes go on
    }

    @Test
    void safeIdsAreTheRegularExpressions() {
        SplittableRandom random = new SplittableRandom(20261204);
        for (int n = 0; n < 200_000; n++) {
            String id = random(random, 8);
            assertEquals(SAFE_ID.matcher(id).matches(), RedisKeys.isSafeId(id), id);
        }
        assertTrue(RedisKeys.isSafeId("a".repeat(128)));
        assertFalse(RedisKeys.isSafeId("a".repeat(129)));
        assertFalse(RedisKeys.isSafeId(null));
    }

    @Test
    void aPlainPathIsAlwaysAUriAndOtherUrisAreAskedOfJavaNetUri() {
        SplittableRandom random = new SplittableRandom(20261205);
        for (int n = 0; n < 200_000; n++) {
            String uri = (random.nextBoolean() ? "/" : "") + random(random, 10);
            assertEquals(jdk(uri), ProblemRoutes.parsable(uri), uri);
            if (ProblemRoutes.isPlainPath(uri)) {
                assertTrue(jdk(uri), uri);
            }
        }
        assertTrue(ProblemRoutes.isPlainPath("/api/v1/answers/autosave-bench-c1b10f86-7284-4b62-8e29-3f99dc28e358"));
        assertFalse(ProblemRoutes.isPlainPath("//host/path"));
    }

    private static boolean jdk(String uri) {
        try {
            new URI(uri);
            return true;
        } catch (URISyntaxException e) {
            return false;
        }
    }
}
