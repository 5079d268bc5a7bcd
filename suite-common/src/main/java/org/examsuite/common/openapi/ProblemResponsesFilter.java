package org.examsuite.common.openapi;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.OASFilter;
import org.eclipse.microprofile.openapi.models.Components;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.Operation;
import org.eclipse.microprofile.openapi.models.PathItem;
import org.eclipse.microprofile.openapi.models.headers.Header;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.eclipse.microprofile.openapi.models.responses.APIResponse;
import org.eclipse.microprofile.openapi.models.responses.APIResponses;
import org.eclipse.microprofile.openapi.models.security.SecurityScheme;
import org.eclipse.microprofile.openapi.models.tags.Tag;
import org.examsuite.common.problem.Problems;
import org.examsuite.contracts.problem.ProblemCode;

/**
 * Completes every service's OpenAPI document (docs/api.md "OpenAPI description") so that each
 * resource declares only what is its own. A resource's error {@code @APIResponse} names its
 * problem codes in the description ("CODE (note), CODE"); this filter gives it the shared Problem
 * schema as application/problem+json, lists the codes in {@code x-problem-codes}, adds the codes
 * every endpoint may answer (docs/api.md §4) and Retry-After where a retry can cure, defines
 * the three token schemes once, and marks {@code /internal/**} as internal. Runs at build time.
 */
public class ProblemResponsesFilter implements OASFilter {
    public static final String PROBLEM = "Problem";
    public static final String INTERNAL_TAG = "internal";
    public static final String CODES = "x-problem-codes";
    private static final Pattern CODE = Pattern.compile("[A-Z][A-Z0-9_]*");
    private static final Pattern NOTE = Pattern.compile("\\([^)]*\\)");

    @Override
    public void filterOpenAPI(OpenAPI openAPI) {
        components(openAPI);
        if (openAPI.getPaths() == null || openAPI.getPaths().getPathItems() == null) {
            return;
        }
        boolean anyInternal = false;
        for (Map.Entry<String, PathItem> path : openAPI.getPaths().getPathItems().entrySet()) {
            boolean internal = path.getKey().startsWith("/internal/");
            anyInternal |= internal;
            for (Operation op : path.getValue().getOperations().values()) {
                if (internal) {
                    if (op.getTags() == null || !op.getTags().contains(INTERNAL_TAG)) {
                        op.addTag(INTERNAL_TAG);
                    }
                    op.addExtension("x-internal", true);
                }
                knownSchemesOnly(op, openAPI.getComponents());
                responses(op);
            }
        }
        if (anyInternal && (openAPI.getTags() == null
                || openAPI.getTags().stream().noneMatch(t -> INTERNAL_TAG.equals(t.getName())))) {
            Tag tag = OASFactory.createTag().name(INTERNAL_TAG)
                    .description("Service-to-service calls (service token only); never routed by the ingress (docs/api.md §4.3).");
            openAPI.addTag(tag);
        }
    }

    private static void components(OpenAPI openAPI) {
        Components components = openAPI.getComponents();
        if (components == null) {
            components = OASFactory.createComponents();
            openAPI.setComponents(components);
        }
        components.addSchema(PROBLEM, problemSchema());
        components.addSecurityScheme("candidate", bearer(
                "Candidate token from POST /api/v1/sessions or a heartbeat (issuer exam-session, audience exam-candidate); reaches only its own session."));
        components.addSecurityScheme("operator", bearer(
                "Operator token from the organisation's OIDC issuer (audience exam-operator)."));
        components.addSecurityScheme("service", bearer(
                "Service token (issuer exam-suite, audience exam-internal): /internal/** and the archive only."));
    }

    /** A requirement naming a scheme the document does not define is a generator's guess (from @RolesAllowed): drop it. */
    private static void knownSchemesOnly(Operation op, Components components) {
        if (op.getSecurity() == null) {
            return;
        }
        Set<String> known = components.getSecuritySchemes().keySet();
        op.setSecurity(new ArrayList<>(op.getSecurity().stream()
                .filter(r -> r.getSchemes() == null || known.containsAll(r.getSchemes().keySet()))
                .toList()));
    }

    private static SecurityScheme bearer(String description) {
        return OASFactory.createSecurityScheme().type(SecurityScheme.Type.HTTP).scheme("bearer")
                .bearerFormat("JWT").description(description);
    }

    private static Schema problemSchema() {
        Schema violation = object()
                .addProperty("field", string("The field or parameter, as a path"))
                .addProperty("message", string("What is wrong with it"));
        return object()
                .description("RFC 9457 problem details; the machine-readable code is `code`. Members beyond the five are named per code.")
                .required(List.of("type", "title", "status", "code"))
                .addProperty("type", string("urn:exam-suite:problem:<CODE>"))
                .addProperty("title", string("The status's reason phrase"))
                .addProperty("status", OASFactory.createSchema().addType(Schema.SchemaType.INTEGER))
                .addProperty("detail", string("What happened, for a human"))
                .addProperty("code", string("The problem code (x-problem-codes of the response lists those it can carry)"))
                .addProperty("field", string("INVALID_FIELD: the field at fault"))
                .addProperty("violations", OASFactory.createSchema().addType(Schema.SchemaType.ARRAY)
                        .description("VALIDATION_FAILED: every violation").items(violation))
                .addProperty("questionId", string("UNKNOWN_QUESTION, INVALID_ANSWER, PAYLOAD_TOO_LARGE: the question at fault"))
                .addProperty("deviceEpoch", OASFactory.createSchema().addType(Schema.SchemaType.INTEGER)
                        .description("SESSION_TAKEN_OVER: the session's current device epoch"))
                .addProperty("opensAt", string("EXAM_NOT_OPEN: the exam's window").format("date-time"))
                .addProperty("closesAt", string("EXAM_NOT_OPEN: the exam's window").format("date-time"))
                .addProperty("paperId", string("The paper concerned"))
                .additionalPropertiesBoolean(Boolean.TRUE);
    }

    private static Schema object() {
        return OASFactory.createSchema().addType(Schema.SchemaType.OBJECT);
    }

    private static Schema string(String description) {
        return OASFactory.createSchema().addType(Schema.SchemaType.STRING).description(description);
    }

    private static void responses(Operation op) {
        APIResponses responses = op.getResponses();
        if (responses == null) {
            responses = OASFactory.createAPIResponses();
            op.setResponses(responses);
        }
        Map<String, APIResponse> all = new LinkedHashMap<>(responses.getAPIResponses() == null ? Map.of() : responses.getAPIResponses());
        common(op).forEach((status, codes) -> {
            APIResponse response = all.computeIfAbsent(status, s -> OASFactory.createAPIResponse());
            String description = response.getDescription() == null ? "" : response.getDescription();
            List<String> missing = codes.stream().filter(c -> !codes(description).contains(c)).toList();
            if (!missing.isEmpty()) {
                response.setDescription(description.isBlank() ? String.join(", ", missing)
                        : description + ", " + String.join(", ", missing));
            }
        });
        Map<String, APIResponse> sorted = new TreeMap<>();
        all.forEach((status, response) -> {
            if (status.length() == 3 && status.charAt(0) >= '4') {
                problem(status, response);
            }
            sorted.put(status, response);
        });
        responses.setAPIResponses(sorted);
    }

    /** The codes every endpoint may answer (docs/api.md §4), by what the operation takes. */
    private static Map<String, List<String>> common(Operation op) {
        boolean body = op.getRequestBody() != null;
        boolean secured = op.getSecurity() != null && op.getSecurity().stream().anyMatch(r -> r.getSchemes() != null && !r.getSchemes().isEmpty());
        Map<String, List<String>> common = new LinkedHashMap<>();
        common.put("400", body ? List.of(ProblemCode.MALFORMED_URI.name(), ProblemCode.MALFORMED_JSON.name(), ProblemCode.INVALID_FIELD.name()) : List.of(ProblemCode.MALFORMED_URI.name()));
        if (secured) {
            common.put("401", List.of(ProblemCode.UNAUTHORIZED.name()));
            common.put("403", List.of(ProblemCode.FORBIDDEN.name()));
        }
        common.put("404", List.of(ProblemCode.NOT_FOUND.name()));
        common.put("405", List.of(ProblemCode.METHOD_NOT_ALLOWED.name()));
        common.put("414", List.of(ProblemCode.URI_TOO_LONG.name()));
        common.put("431", List.of(ProblemCode.HEADERS_TOO_LARGE.name()));
        if (body) {
            common.put("413", List.of(ProblemCode.PAYLOAD_TOO_LARGE.name()));
            common.put("415", List.of(ProblemCode.UNSUPPORTED_MEDIA_TYPE.name()));
        }
        common.put("500", List.of(ProblemCode.INTERNAL_ERROR.name()));
        common.put("503", List.of(ProblemCode.SERVICE_UNAVAILABLE.name()));
        return common;
    }

    private static void problem(String status, APIResponse response) {
        List<String> codes = new ArrayList<>(codes(response.getDescription()));
        if (codes.isEmpty()) {
            codes.add(Problems.codeFor(Integer.parseInt(status)));
            response.setDescription(codes.get(0));
        }
        response.setContent(OASFactory.createContent().addMediaType(Problems.MEDIA_TYPE,
                OASFactory.createMediaType().schema(OASFactory.createSchema().ref(PROBLEM))));
        response.addExtension(CODES, codes);
        if (status.equals("429") || status.equals("503") || codes.contains(ProblemCode.REQUEST_IN_PROGRESS.name())) {
            response.addHeader("Retry-After", integerHeader(
                    "Seconds to wait before retrying" + (status.equals("409") ? " (REQUEST_IN_PROGRESS)" : "")));
        }
        if (codes.contains(ProblemCode.UNAUTHORIZED.name())) {
            response.addHeader("WWW-Authenticate", OASFactory.createHeader().description("Bearer")
                    .schema(OASFactory.createSchema().addType(Schema.SchemaType.STRING)));
        }
        if (status.equals("405")) {
            response.addHeader("Allow", OASFactory.createHeader().description("The methods the path takes")
                    .schema(OASFactory.createSchema().addType(Schema.SchemaType.STRING)));
        }
    }

    private static Header integerHeader(String description) {
        return OASFactory.createHeader().description(description)
                .schema(OASFactory.createSchema().addType(Schema.SchemaType.INTEGER).minimum(java.math.BigDecimal.ONE));
    }

    /** The codes a description names: "CODE (note), CODE" → [CODE, CODE]; parenthesised notes are not codes. */
    public static Set<String> codes(String description) {
        Set<String> codes = new LinkedHashSet<>();
        if (description == null) {
            return codes;
        }
        for (String part : NOTE.matcher(description).replaceAll("").split(",")) {
            String code = part.trim();
            if (CODE.matcher(code).matches()) {
                codes.add(code);
            }
        }
        return codes;
    }
}
