package org.examsuite.testing;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The OpenAPI description is the committed one (docs/openapi/&lt;service&gt;.json for the public
 * API, docs/openapi/internal/&lt;service&gt;.json for the internal one) and complete (docs/api.md
 * "OpenAPI description"). Each service's test class extends this with its {@code @QuarkusTest}
 * resources. {@code -Dopenapi.update=true} rewrites the committed files from the running service
 * instead of comparing, for a change to the API made on purpose.
 */
public abstract class OpenApiContract {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private static final List<String> METHODS = List.of("get", "put", "post", "delete", "options", "head", "patch", "trace");

    /** The module's name, which is also the committed file's. */
    protected abstract String service();

    /**
     * Two committed documents, cut from the one served: the public API (docs/openapi/&lt;service&gt;.json)
     * for frontend developers, and the service-to-service one (docs/openapi/internal/&lt;service&gt;.json),
     * each with only the schemas its operations reach.
     */
    @Test
    void servedDescriptionIsTheCommittedOne() throws IOException {
        JsonNode served = JSON.readTree(document());
        Path dir = Path.of(System.getProperty("user.dir")).resolveSibling("docs").resolve("openapi");
        compare(dir.resolve(service() + ".json"), normalised(part(served, false)));
        JsonNode internal = part(served, true);
        Path internalFile = dir.resolve("internal").resolve(service() + ".json");
        if (internal.path("paths").isEmpty()) {
            assertFalse(Files.exists(internalFile), service() + " has no internal operations: remove " + internalFile);
        } else {
            compare(internalFile, normalised(internal));
        }
    }

    private static void compare(Path committed, String served) throws IOException {
        if (Boolean.getBoolean("openapi.update")) {
            Files.createDirectories(committed.getParent());
            Files.writeString(committed, served, StandardCharsets.UTF_8);
        }
        assertTrue(Files.exists(committed), committed + " is missing: run this test with -Dopenapi.update=true");
        assertEquals(Files.readString(committed, StandardCharsets.UTF_8), served,
                "/q/openapi differs from " + committed + "; if the API changed on purpose, rerun with -Dopenapi.update=true and commit the file");
    }

    /** The public or the internal operations, the tags they use and the components they reach. */
    static JsonNode part(JsonNode served, boolean internal) {
        ObjectNode doc = served.deepCopy();
        ObjectNode paths = JSON.createObjectNode();
        served.path("paths").fields().forEachRemaining(p -> {
            if (p.getKey().startsWith("/internal/") == internal) {
                paths.set(p.getKey(), p.getValue());
            }
        });
        doc.set("paths", paths);
        Set<String> usedTags = new HashSet<>();
        paths.findValues("tags").forEach(tags -> tags.forEach(t -> usedTags.add(t.asText())));
        if (doc.path("tags").isArray()) {
            ArrayNode tags = JSON.createArrayNode();
            doc.path("tags").forEach(t -> {
                if (usedTags.contains(t.path("name").asText())) {
                    tags.add(t);
                }
            });
            doc.set("tags", tags);
        }
        if (internal) {
            ObjectNode info = (ObjectNode) doc.path("info");
            info.put("title", info.path("title").asText() + " (internal)");
        }
        JsonNode schemas = served.path("components").path("schemas");
        if (schemas.isObject()) {
            Set<String> reached = new TreeSet<>();
            Deque<JsonNode> todo = new ArrayDeque<>(List.of(paths));
            while (!todo.isEmpty()) {
                for (JsonNode ref : todo.pop().findValues("$ref")) {
                    String name = ref.asText().substring(ref.asText().lastIndexOf('/') + 1);
                    if (ref.asText().startsWith("#/components/schemas/") && reached.add(name) && schemas.has(name)) {
                        todo.push(schemas.get(name));
                    }
                }
            }
            ObjectNode kept = JSON.createObjectNode();
            reached.forEach(name -> {
                if (schemas.has(name)) {
                    kept.set(name, schemas.get(name));
                }
            });
            ((ObjectNode) doc.path("components")).set("schemas", kept);
        }
        return doc;
    }

    @Test
    void everyOperationIsDocumented() throws IOException {
        JsonNode doc = JSON.readTree(document());
        List<String> faults = new ArrayList<>();
        int operations = 0;
        for (Iterator<Map.Entry<String, JsonNode>> paths = doc.path("paths").fields(); paths.hasNext();) {
            Map.Entry<String, JsonNode> path = paths.next();
            boolean internal = path.getKey().startsWith("/internal/");
            for (String method : METHODS) {
                JsonNode op = path.getValue().get(method);
                if (op == null) {
                    continue;
                }
                operations++;
                String name = method.toUpperCase() + " " + path.getKey() + ": ";
                if (op.path("summary").asText("").isBlank()) {
                    faults.add(name + "no summary");
                }
                if (!op.path("tags").isArray() || op.path("tags").isEmpty()) {
                    faults.add(name + "no tag");
                }
                if (!op.path("security").isArray() || op.path("security").isEmpty()) {
                    faults.add(name + "no security requirement (an unauthenticated one declares an empty one)");
                }
                boolean taggedInternal = op.path("tags").toString().contains("\"internal\"") && op.path("x-internal").asBoolean(false);
                if (internal != taggedInternal) {
                    faults.add(name + (internal ? "not marked internal" : "marked internal outside /internal"));
                }
                boolean success = false;
                boolean problem4xx = false;
                for (Iterator<Map.Entry<String, JsonNode>> rs = op.path("responses").fields(); rs.hasNext();) {
                    Map.Entry<String, JsonNode> r = rs.next();
                    String status = r.getKey();
                    success |= status.startsWith("2");
                    if (status.startsWith("4") || status.startsWith("5")) {
                        JsonNode codes = r.getValue().path("x-problem-codes");
                        if (r.getValue().path("content").path("application/problem+json").isMissingNode() || codes.isEmpty()) {
                            faults.add(name + status + " is not problem+json with x-problem-codes");
                        }
                        problem4xx |= status.startsWith("4") && !codes.isEmpty();
                        for (JsonNode code : codes) {
                            if (!code.asText().matches("[A-Z][A-Z0-9_]*")) {
                                faults.add(name + status + " names a code that is not one: " + code);
                            }
                        }
                        if ((status.equals("429") || status.equals("503")) && r.getValue().path("headers").path("Retry-After").isMissingNode()) {
                            faults.add(name + status + " without Retry-After");
                        }
                    }
                }
                if (!success) {
                    faults.add(name + "no 2xx response");
                }
                if (!problem4xx) {
                    faults.add(name + "no 4xx problem response");
                }
            }
        }
        assertTrue(operations > 0, "no operations in /q/openapi");
        assertTrue(faults.isEmpty(), "undocumented in /q/openapi:\n" + String.join("\n", faults));
    }

    private static String document() {
        return given().accept("application/json").when().get("/q/openapi?format=json").then().statusCode(200).extract().asString();
    }

    /** Keys sorted at every level and two-space indentation, so the committed file diffs line by line. */
    static String normalised(JsonNode doc) throws IOException {
        return JSON.writeValueAsString(sorted(doc)) + "\n";
    }

    private static JsonNode sorted(JsonNode node) {
        if (node.isObject()) {
            TreeMap<String, JsonNode> fields = new TreeMap<>();
            node.fields().forEachRemaining(e -> fields.put(e.getKey(), sorted(e.getValue())));
            ObjectNode out = JSON.createObjectNode();
            fields.forEach(out::set);
            return out;
        }
        if (node.isArray()) {
            ArrayNode out = JSON.createArrayNode();
            node.forEach(e -> out.add(sorted(e)));
            return out;
        }
        return node;
    }
}
