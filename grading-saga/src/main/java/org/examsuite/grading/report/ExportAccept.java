package org.examsuite.grading.report;

import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.container.ContainerRequestContext;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * The export's media type is chosen by its {@code format} parameter, not by {@code Accept}: a
 * streamed method declares one media type (text/csv), so a client asking for the JSON export
 * with {@code Accept: application/json} would otherwise be refused before the method runs.
 */
public class ExportAccept {
    @ServerRequestFilter(preMatching = true)
    public void acceptAnyForExports(ContainerRequestContext request) {
        if (HttpMethod.GET.equals(request.getMethod()) && request.getUriInfo().getPath().endsWith("/export")
                && request.getUriInfo().getPath().startsWith("/api/v1/results/exams/")) {
            request.getHeaders().putSingle("Accept", "*/*");
        }
    }
}
