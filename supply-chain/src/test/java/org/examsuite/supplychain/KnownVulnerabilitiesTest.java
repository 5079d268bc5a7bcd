package org.examsuite.supplychain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.examsuite.supplychain.KnownVulnerabilities.Component;
import org.junit.jupiter.api.Test;

/**
 * The suite ships nothing with a known critical vulnerability (supply-chain/advisories.json, docs/supply-chain.md):
 * every service has its CycloneDX bill of materials from the build, and none of their components nor any package of
 * exam-client's lock file lies in a critical advisory's range.
 */
class KnownVulnerabilitiesTest {
    static final List<String> SERVICES = List.of("session-service", "answer-service", "submission-service", "grading-saga");
    static final Path ROOT = Path.of(System.getProperty("supply-chain.root", "..")).toAbsolutePath().normalize();
    static final Set<String> FAILING = Set.of("CRITICAL");

    @Test
    void everyServiceShipsABillOfMaterials() throws Exception {
        for (String service : SERVICES) {
            Path bom = ROOT.resolve(service).resolve("target/bom.json");
            assertTrue(Files.isRegularFile(bom), bom + " is missing: the service's package phase writes it (./mvnw package)");
            JsonNode tree = new ObjectMapper().readTree(bom.toFile());
            assertEquals("CycloneDX", tree.path("bomFormat").asText());
            assertEquals(service, tree.at("/metadata/component/name").asText());
            List<String> names = KnownVulnerabilities.fromBom(bom, service).stream().map(Component::name).toList();
            assertTrue(names.contains("io.quarkus:quarkus-core") && names.contains("io.vertx:vertx-core"), service + ": " + names.size());
        }
    }

    @Test
    void nothingShippedHasAKnownCriticalVulnerability() throws Exception {
        List<Component> shipped = new ArrayList<>();
        for (String service : SERVICES) {
            shipped.addAll(KnownVulnerabilities.fromBom(ROOT.resolve(service).resolve("target/bom.json"), service));
        }
        shipped.addAll(KnownVulnerabilities.fromPackageLock(ROOT.resolve("exam-client/package-lock.json"), "exam-client"));
        List<KnownVulnerabilities.Advisory> advisories = KnownVulnerabilities.advisories(ROOT.resolve("supply-chain/advisories.json"));
        assertTrue(shipped.size() > 300 && !advisories.isEmpty(), shipped.size() + " components, " + advisories.size() + " advisories");
        assertEquals(Set.of(), KnownVulnerabilities.findings(shipped, advisories, FAILING),
                "shipped components with a known critical vulnerability: upgrade them (docs/supply-chain.md)");
    }

    @Test
    void aVersionInsideAnAdvisorysRangeIsFoundAndOneOutsideIsNot() throws Exception {
        List<KnownVulnerabilities.Advisory> advisories = KnownVulnerabilities.advisories(ROOT.resolve("supply-chain/advisories.json"));
        List<Component> affected = List.of(new Component("Maven", "org.apache.logging.log4j:log4j-core", "2.14.1", "a"),
                new Component("Maven", "org.apache.logging.log4j:log4j-core", "2.0-beta9", "b"),
                new Component("Maven", "org.postgresql:postgresql", "42.7.1", "c"),
                new Component("npm", "minimist", "1.2.5", "d"));
        List<Component> safe = List.of(new Component("Maven", "org.apache.logging.log4j:log4j-core", "2.15.0", "a"),
                new Component("Maven", "org.apache.logging.log4j:log4j-core", "2.0-beta8", "b"),
                new Component("Maven", "org.postgresql:postgresql", "42.7.2", "c"),
                new Component("npm", "minimist", "1.2.6", "d"),
                new Component("npm", "org.apache.logging.log4j:log4j-core", "2.14.1", "another ecosystem"));
        assertEquals(4, KnownVulnerabilities.findings(affected, advisories, FAILING).size(),
                String.valueOf(KnownVulnerabilities.findings(affected, advisories, FAILING)));
        assertEquals(Set.of(), KnownVulnerabilities.findings(safe, advisories, FAILING));
        assertEquals(Set.of(), KnownVulnerabilities.findings(affected, advisories, Set.of("HIGH")), "severities filter");
    }

    @Test
    void versionsOrderAsMavenAndNpmMeanThem() {
        List<String> ascending = List.of("1.0-alpha1", "1.0-beta2", "1.0-rc1", "1.0", "1.0.1", "1.1", "2.0-beta9", "2.0",
                "4.1.100.Final", "4.1.101", "42.2.27", "42.2.28", "42.10.0");
        for (int i = 0; i + 1 < ascending.size(); i++) {
            assertTrue(Version.compare(ascending.get(i), ascending.get(i + 1)) < 0, ascending.get(i) + " < " + ascending.get(i + 1));
            assertTrue(Version.compare(ascending.get(i + 1), ascending.get(i)) > 0, ascending.get(i + 1) + " > " + ascending.get(i));
        }
        assertEquals(0, Version.compare("1.0.0", "1"));
        assertEquals(0, Version.compare("3.33.2.Final", "3.33.2"));
        assertEquals(0, Version.compare("1.2.3+build.7", "1.2.3"));
    }
}
