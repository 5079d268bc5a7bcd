package org.examsuite.common.auth;

import io.quarkus.oidc.runtime.OidcJwtCallerPrincipal;
import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonString;
import java.util.Arrays;
import java.util.Collection;
import java.util.Set;
import java.util.stream.Collectors;
import org.eclipse.microprofile.jwt.Claims;
import org.eclipse.microprofile.jwt.JsonWebToken;

/**
 * Reads a token's claims — the one place the suite does. The verifier's principal looks every
 * claim name up as {@code Claims.valueOf(name)}, which throws and catches an exception with a
 * full stack trace for each custom claim ({@code sessionId}, {@code examId}, …): ~5 % of
 * submission-service's CPU in a deadline storm. Custom claims are therefore read from its
 * parsed claims set (plain Java values); standard ones through {@code getClaim}, typed as the
 * MicroProfile JWT API says.
 */
public final class TokenClaims {
    private static final Set<String> STANDARD = Arrays.stream(Claims.values()).map(Claims::name)
            .collect(Collectors.toUnmodifiableSet());

    private TokenClaims() {
    }

    /** The claim's value — a JSON-P value, a plain one or a set of strings — or null. */
    public static Object get(JsonWebToken jwt, String name) {
        if (jwt instanceof OidcJwtCallerPrincipal verified && !STANDARD.contains(name)) {
            return verified.getClaims().getClaimValue(name);
        }
        return jwt.getClaim(name);
    }

    /** Whether the token has this claim. */
    public static boolean has(JsonWebToken jwt, String name) {
        return jwt.getClaimNames().contains(name);
    }

    /** A claim as a string, or null. */
    public static String string(JsonWebToken jwt, String name) {
        Object value = get(jwt, name);
        if (value instanceof JsonString string) {
            return string.getString();
        }
        return value == null ? null : value.toString();
    }

    /** A claim holding strings (a JSON array, a set, or one string) as a set; empty when absent. */
    public static Set<String> strings(JsonWebToken jwt, String name) {
        Object value = get(jwt, name);
        if (value instanceof JsonArray array) {
            return array.stream().filter(JsonString.class::isInstance).map(v -> ((JsonString) v).getString())
                    .collect(Collectors.toUnmodifiableSet());
        }
        if (value instanceof Collection<?> values) {
            return values.stream().map(String::valueOf).collect(Collectors.toUnmodifiableSet());
        }
        String one = value instanceof JsonString string ? string.getString() : value == null ? null : value.toString();
        return one == null || one.isEmpty() ? Set.of() : Set.of(one);
    }

    /** A numeric claim as a whole number, or null. */
    public static Long whole(JsonWebToken jwt, String name) {
        Object value = get(jwt, name);
        if (value instanceof JsonNumber number) {
            return number.longValue();
        }
        return value instanceof Number number ? Long.valueOf(number.longValue()) : null;
    }
}
