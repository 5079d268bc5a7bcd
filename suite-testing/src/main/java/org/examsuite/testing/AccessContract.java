package org.examsuite.testing;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.restassured.specification.RequestSpecification;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.examsuite.common.auth.Roles;
import org.junit.jupiter.api.Test;

/**
 * Who may do what, checked against the decision table of docs/api.md §4.2 (its auth column): every public operation of
 * the service's committed OpenAPI document must have a row, and each staff role and an operator, calling every
 * operation (ids nobody has, so nothing is changed), gets 403 exactly where the table does not name the role — the
 * staff roles of an organisation with no exams assigned: where the role is named, the call is out of scope (404) or
 * refused for its input, never 403 or 401. A new endpoint without a decision, or an annotation that drifts from the
 * table, fails the build.
 * <p>
 * The same for the service-to-service API: every operation of the committed internal document has a row in §4.3,
 * whose callers column names the services that need it; each service's own token gets 403 exactly where it is not
 * named, and a token made with another service's key is a 401.
 */
public abstract class AccessContract {
    private static final Pattern OPERATION = Pattern.compile("`([A-Z]+) (/[^`?\\s\\[]*)[^`]*`");
    private static final Pattern SUFFIX = Pattern.compile("`(/[a-z-]+)`");
    private static final Pattern ROLE = Pattern.compile("\\b(none|candidate|operator|service|admin|author|proctor|grader)\\b");
    private static final Pattern SERVICE_NAME = Pattern.compile("\\b(session-service|answer-service|submission-service|grading-saga)\\b");
    private static final List<String> CALLERS = List.of(Roles.OPERATOR, Roles.ADMIN, Roles.AUTHOR, Roles.PROCTOR, Roles.GRADER);

    /** The module's name, which is also its committed OpenAPI document's. */
    protected abstract String service();

    @Test
    void everyOperationHasADecisionAndEachRoleGetsExactlyIt() throws IOException {
        Path docs = Path.of(System.getProperty("user.dir")).resolveSibling("docs");
        Map<String, Set<String>> table = decisions(Files.readString(docs.resolve("api.md")));
        JsonNode paths = new ObjectMapper().readTree(docs.resolve("openapi").resolve(service() + ".json").toFile()).path("paths");
        List<String> wrong = new ArrayList<>();
        int checked = 0;
        for (Iterator<Map.Entry<String, JsonNode>> it = paths.fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> path = it.next();
            for (Iterator<String> methods = path.getValue().fieldNames(); methods.hasNext();) {
                String method = methods.next().toUpperCase();
                String operation = method + " " + path.getKey();
                Set<String> allowed = table.get(operation);
                if (allowed == null) {
                    wrong.add(operation + ": no decision in docs/api.md §4.2");
                    continue;
                }
                for (String role : CALLERS) {
                    int status = call(method, path.getKey(), role);
                    boolean named = allowed.contains(role) || allowed.contains("none");
                    checked++;
                    if (named ? status == 403 || status == 401 : status != 403) {
                        wrong.add(operation + " as " + role + ": " + status + " (the table " + (named ? "names" : "does not name")
                                + " the role)");
                    }
                }
            }
        }
        assertTrue(checked > 0, "no operation of " + service() + " was called");
        assertEquals(List.of(), wrong, "docs/api.md §4.2's decisions and " + service() + " disagree");
    }

    @Test
    void everyInternalOperationAcceptsExactlyTheServicesThatNeedIt() throws IOException {
        Path docs = Path.of(System.getProperty("user.dir")).resolveSibling("docs");
        Path document = docs.resolve("openapi").resolve("internal").resolve(service() + ".json");
        if (!Files.exists(document)) {
            return; // grading-saga has no /internal API
        }
        Map<String, Set<String>> table = internalCallers(Files.readString(docs.resolve("api.md")));
        JsonNode paths = new ObjectMapper().readTree(document.toFile()).path("paths");
        List<String> wrong = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = paths.fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> path = it.next();
            for (Iterator<String> methods = path.getValue().fieldNames(); methods.hasNext();) {
                String method = methods.next().toUpperCase();
                String operation = method + " " + path.getKey();
                Set<String> callers = table.get(operation);
                if (callers == null) {
                    wrong.add(operation + ": no callers in docs/api.md §4.3");
                    continue;
                }
                for (String service : Roles.SERVICES) {
                    int status = callAs(method, path.getKey(), TestTokens.service(service));
                    boolean named = callers.contains(service);
                    if (named ? status == 403 || status == 401 : status != 403) {
                        wrong.add(operation + " from " + service + ": " + status + " (the table " + (named ? "names" : "does not name")
                                + " it)");
                    }
                }
                int forged = callAs(method, path.getKey(), TestTokens.serviceSignedWithAnotherServicesKey());
                if (forged != 401) {
                    wrong.add(operation + " with answer-service's name and grading-saga's key: " + forged);
                }
            }
        }
        assertEquals(List.of(), wrong, "docs/api.md §4.3's callers and " + service() + " disagree");
    }

    /** The callers column of docs/api.md §4.3: "METHOD /path" → the services it names. */
    static Map<String, Set<String>> internalCallers(String apiMd) {
        Map<String, Set<String>> table = new LinkedHashMap<>();
        for (String line : apiMd.split("\n")) {
            String[] cells = line.split("(?<!\\\\)\\|");
            if (!line.startsWith("| ") || cells.length < 4) {
                continue;
            }
            Matcher op = OPERATION.matcher(cells[2]);
            if (!op.find() || !op.group(2).startsWith("/internal/")) {
                continue;
            }
            Set<String> services = new TreeSet<>();
            Matcher service = SERVICE_NAME.matcher(cells[3]);
            while (service.find()) {
                services.add(service.group(1));
            }
            table.put(op.group(1) + " " + op.group(2), services);
        }
        return table;
    }

    private static int call(String method, String template, String role) {
        return callAs(method, template, Roles.OPERATOR.equals(role) ? TestTokens.operator()
                : TestTokens.staff(role, "org-access-contract"));
    }

    private static int callAs(String method, String template, String token) {
        String path = template.replaceAll("\\{[^}]+}", "access-" + UUID.randomUUID());
        RequestSpecification request = given().header("Authorization", "Bearer " + token)
                .header("Idempotency-Key", UUID.randomUUID().toString()).accept("application/json");
        if (method.equals("POST") || method.equals("PUT") || method.equals("PATCH")) {
            request = request.contentType("application/json").body("{}");
        }
        return request.when().request(method, path).then().extract().statusCode();
    }

    /** The auth column of docs/api.md §4.2's tables: "METHOD /path" → the roles it names. */
    static Map<String, Set<String>> decisions(String apiMd) {
        Map<String, Set<String>> table = new LinkedHashMap<>();
        for (String line : apiMd.split("\n")) {
            if (!line.startsWith("| `")) {
                continue;
            }
            String[] cells = line.split("(?<!\\\\)\\|");
            if (cells.length < 3) {
                continue;
            }
            Matcher op = OPERATION.matcher(cells[1]);
            if (!op.find()) {
                continue;
            }
            Set<String> roles = new TreeSet<>();
            Matcher role = ROLE.matcher(cells[2].replaceAll("\\(.*?\\)", ""));
            while (role.find()) {
                roles.add(role.group(1));
            }
            String method = op.group(1);
            String path = op.group(2);
            table.put(method + " " + path, roles);
            Matcher suffix = SUFFIX.matcher(cells[1].substring(op.end()));
            while (suffix.find()) { // "`POST /a/{id}/pause`, `/resume`": the same decision for /a/{id}/resume
                table.put(method + " " + path.substring(0, path.lastIndexOf('/')) + suffix.group(1), roles);
            }
        }
        return table;
    }
}
