package org.examsuite.common.problem;

import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.ext.Provider;
import jakarta.ws.rs.ext.ReaderInterceptor;
import jakarta.ws.rs.ext.ReaderInterceptorContext;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import org.examsuite.contracts.problem.ProblemCode;

/**
 * Every body a resource reads is JSON (else 415) in strict UTF-8 (else 400 MALFORMED_JSON). A
 * resource without {@code @Consumes} let Jackson read a text/plain body, and Jackson alone took an
 * overlong '/' as '/' (./exam fuzz, docs/fuzzing.md). The body is already bounded by the
 * server's body limit, so holding it once in memory costs a copy. A resource that takes the raw
 * bytes ({@code byte[]}: a figure's image) checks their type itself.
 */
@Provider
public class JsonBodies implements ReaderInterceptor {

    @Override
    public Object aroundReadFrom(ReaderInterceptorContext context) throws IOException {
        if (context.getType() == byte[].class) {
            return context.proceed();
        }
        if (!isJson(context.getMediaType())) {
            throw new ApiException(415, ProblemCode.UNSUPPORTED_MEDIA_TYPE, "Send the body as application/json.");
        }
        context.setInputStream(new ByteArrayInputStream(Utf8.requireValid(context.getInputStream().readAllBytes())));
        return context.proceed();
    }

    /** A body without a Content-Type is read as JSON too. */
    static boolean isJson(MediaType type) {
        if (type == null || type.isWildcardType()) {
            return true;
        }
        String subtype = type.getSubtype();
        return subtype.equalsIgnoreCase("json") || subtype.toLowerCase(java.util.Locale.ROOT).endsWith("+json");
    }
}
