package org.examsuite.k8s;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/** Multi-document YAML to Jackson trees (the rendered chart, kustomize output, rule files). */
final class Yaml {

    static final ObjectMapper YAML = new YAMLMapper();
    static final ObjectMapper JSON = new ObjectMapper();

    private Yaml() {
    }

    static List<ObjectNode> documents(String yaml) {
        try (var parser = new YAMLFactory().createParser(yaml)) {
            List<ObjectNode> docs = new ArrayList<>();
            for (var it = YAML.readValues(parser, JsonNode.class); it.hasNext(); ) {
                JsonNode doc = it.next();
                if (doc instanceof ObjectNode object && !object.isEmpty()) {
                    docs.add(object);
                }
            }
            return docs;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static JsonNode tree(String yamlOrJson) {
        try {
            return YAML.readTree(yamlOrJson);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String json(JsonNode node) {
        try {
            return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(node);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static <T> T convert(JsonNode node, Class<T> type) {
        try {
            return JSON.treeToValue(node, type);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
