package org.examsuite.common.problem;

import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.ext.Provider;
import jakarta.ws.rs.ext.ReaderInterceptor;
import jakarta.ws.rs.ext.ReaderInterceptorContext;
import java.io.ByteArrayInputStream;
import java.io.IOException;

/**
 * Every JSON body a resource reads is strict UTF-8, or 400 MALFORMED_JSON: Jackson alone took an
 * overlong '/' as '/' and invalid bytes in an operator's warning as text (./exam fuzz). The body
 * is already bounded by the server's body limit, so holding it once in memory costs a copy.
 */
@Provider
public class StrictUtf8Bodies implements ReaderInterceptor {

    @Override
    public Object aroundReadFrom(ReaderInterceptorContext context) throws IOException {
        if (isJson(context.getMediaType())) {
            context.setInputStream(new ByteArrayInputStream(Utf8.requireValid(context.getInputStream().readAllBytes())));
        }
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
