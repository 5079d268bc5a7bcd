package org.examsuite.supplychain;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the suite ships, matched against the advisories the build can read offline (supply-chain/advisories.json,
 * docs/supply-chain.md): a component is affected when an advisory names its ecosystem and package and its version lies
 * in one of the advisory's ranges (introduced inclusive, fixed exclusive, lastAffected inclusive).
 */
final class KnownVulnerabilities {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** A shipped package: ecosystem "Maven" (group:artifact) or "npm" (name), its version, and what ships it. */
    record Component(String ecosystem, String name, String version, String shippedBy) {
    }

    record Range(String introduced, String fixed, String lastAffected) {
        boolean contains(String version) {
            boolean from = introduced == null || introduced.equals("0") || Version.compare(version, introduced) >= 0;
            boolean to = fixed != null ? Version.compare(version, fixed) < 0
                    : lastAffected == null || Version.compare(version, lastAffected) <= 0;
            return from && to;
        }
    }

    record Advisory(String id, List<String> aliases, String ecosystem, String name, String severity, List<Range> ranges,
            String summary) {
        boolean affects(Component c) {
            return ecosystem.equalsIgnoreCase(c.ecosystem()) && name.equals(c.name())
                    && ranges.stream().anyMatch(r -> r.contains(c.version()));
        }
    }

    private KnownVulnerabilities() {
    }

    static List<Advisory> advisories(Path file) throws IOException {
        List<Advisory> advisories = new ArrayList<>();
        for (JsonNode a : JSON.readTree(file.toFile()).path("advisories")) {
            List<Range> ranges = new ArrayList<>();
            for (JsonNode r : a.path("ranges")) {
                ranges.add(new Range(text(r, "introduced"), text(r, "fixed"), text(r, "lastAffected")));
            }
            List<String> aliases = new ArrayList<>();
            a.path("aliases").forEach(alias -> aliases.add(alias.asText()));
            advisories.add(new Advisory(a.path("id").asText(), aliases, a.path("ecosystem").asText(), a.path("package").asText(),
                    a.path("severity").asText(), ranges, a.path("summary").asText()));
        }
        return advisories;
    }

    /** The Maven components of a CycloneDX bill of materials, by their package URLs. */
    static List<Component> fromBom(Path bom, String shippedBy) throws IOException {
        List<Component> components = new ArrayList<>();
        for (JsonNode c : JSON.readTree(bom.toFile()).path("components")) {
            String purl = c.path("purl").asText("");
            if (!purl.startsWith("pkg:maven/")) {
                continue;
            }
            String coordinates = purl.substring("pkg:maven/".length()).replaceFirst("\\?.*$", "");
            int at = coordinates.lastIndexOf('@');
            String[] ga = URLDecoder.decode(coordinates.substring(0, at), StandardCharsets.UTF_8).split("/");
            components.add(new Component("Maven", ga[0] + ":" + ga[1], coordinates.substring(at + 1), shippedBy));
        }
        return components;
    }

    /** Every npm package of a package-lock.json (v2/v3 "packages"), dev ones too: the exam page bundles some. */
    static List<Component> fromPackageLock(Path lock, String shippedBy) throws IOException {
        List<Component> components = new ArrayList<>();
        Iterator<Map.Entry<String, JsonNode>> packages = JSON.readTree(lock.toFile()).path("packages").fields();
        while (packages.hasNext()) {
            Map.Entry<String, JsonNode> p = packages.next();
            int at = p.getKey().lastIndexOf("node_modules/");
            if (at < 0 || !p.getValue().has("version")) {
                continue; // the project itself
            }
            components.add(new Component("npm", p.getKey().substring(at + "node_modules/".length()),
                    p.getValue().path("version").asText(), shippedBy));
        }
        return components;
    }

    /** "component@version (shipped by): id (aliases) summary" for each affected component, at the given severities. */
    static Set<String> findings(List<Component> components, List<Advisory> advisories, Set<String> severities) {
        Set<String> findings = new LinkedHashSet<>();
        for (Advisory a : advisories) {
            if (!severities.contains(a.severity().toUpperCase(java.util.Locale.ROOT))) {
                continue;
            }
            for (Component c : components) {
                if (a.affects(c)) {
                    findings.add(c.name() + "@" + c.version() + " (" + c.shippedBy() + "): " + a.id() + " " + a.aliases()
                            + " " + a.severity() + " — " + a.summary());
                }
            }
        }
        return findings;
    }

    private static String text(JsonNode node, String field) {
        return node.hasNonNull(field) ? node.get(field).asText() : null;
    }
}
