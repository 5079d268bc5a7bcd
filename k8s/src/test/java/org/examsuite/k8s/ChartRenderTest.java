package org.examsuite.k8s;

import static org.examsuite.k8s.Chart.NAMESPACE;
import static org.examsuite.k8s.Chart.SERVICES;
import static org.examsuite.k8s.Chart.fullName;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.networking.v1.Ingress;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** What the chart renders, for default and production-like values (real Helm via helm-java). */
class ChartRenderTest {

    static List<Chart.Values> bothValueSets() {
        return List.of(Chart.Values.defaults(), Chart.Values.production());
    }

    private static Deployment deployment(Chart.Rendered rendered, String service) {
        return Yaml.convert(rendered.get("Deployment", fullName(service)), Deployment.class);
    }

    private static Map<String, EnvVar> env(Container container) {
        return container.getEnv().stream().collect(Collectors.toMap(EnvVar::getName, e -> e, (a, b) -> a, TreeMap::new));
    }

    @ParameterizedTest
    @MethodSource("bothValueSets")
    void everyServiceHasDeploymentServicePdbNetworkPolicyMonitorAndScaler(Chart.Values values) {
        Chart.Rendered rendered = Chart.render(values);
        for (String service : SERVICES) {
            for (String kind : List.of("Deployment", "Service", "PodDisruptionBudget", "NetworkPolicy",
                    "ServiceMonitor", "ScaledObject")) {
                rendered.get(kind, fullName(service));
            }
        }
        rendered.get("PrometheusRule", "exam-suite");
        rendered.get("ConfigMap", "exam-suite-config");
        rendered.get("ConfigMap", "exam-suite-dashboard");
        rendered.get("Ingress", "exam-suite");
        assertTrue(rendered.ofKind("HorizontalPodAutoscaler").isEmpty(), "KEDA mode renders no plain HPA");
    }

    @ParameterizedTest
    @MethodSource("bothValueSets")
    void podsAreHardened(Chart.Values values) {
        Chart.Rendered rendered = Chart.render(values);
        for (String service : SERVICES) {
            PodSpec pod = deployment(rendered, service).getSpec().getTemplate().getSpec();
            assertTrue(pod.getSecurityContext().getRunAsNonRoot(), service);
            assertTrue(pod.getSecurityContext().getRunAsUser() > 0, service);
            assertEquals("RuntimeDefault", pod.getSecurityContext().getSeccompProfile().getType(), service);
            assertFalse(pod.getAutomountServiceAccountToken(), service + ": the services never call the API server");
            Container container = pod.getContainers().get(0);
            var security = container.getSecurityContext();
            assertFalse(security.getAllowPrivilegeEscalation(), service);
            assertTrue(security.getReadOnlyRootFilesystem(), service);
            assertFalse(security.getPrivileged(), service);
            assertEquals(List.of("ALL"), security.getCapabilities().getDrop(), service);
            assertEquals("/tmp", container.getVolumeMounts().get(0).getMountPath(), service + ": writable /tmp");
            assertTrue(pod.getVolumes().get(0).getEmptyDir() != null, service + ": /tmp is an emptyDir");
        }
    }

    @ParameterizedTest
    @MethodSource("bothValueSets")
    void probesUseSmallRyeHealthOnTheServicePort(Chart.Values values) {
        Chart.Rendered rendered = Chart.render(values);
        Map<String, Integer> ports = Map.of("session-service", 8081, "answer-service", 8082,
                "submission-service", 8083, "grading-saga", 8084);
        for (String service : SERVICES) {
            Container c = deployment(rendered, service).getSpec().getTemplate().getSpec().getContainers().get(0);
            assertEquals("/q/health/started", c.getStartupProbe().getHttpGet().getPath());
            assertEquals("/q/health/live", c.getLivenessProbe().getHttpGet().getPath());
            assertEquals("/q/health/ready", c.getReadinessProbe().getHttpGet().getPath());
            assertEquals(ports.get(service), c.getPorts().get(0).getContainerPort(), service);
            assertEquals(String.valueOf(ports.get(service)), env(c).get("EXAM_HTTP_PORT").getValue());
            JsonNode svc = rendered.get("Service", fullName(service));
            assertEquals(ports.get(service).intValue(), svc.at("/spec/ports/0/port").asInt());
            assertTrue(c.getResources().getLimits().containsKey("memory"), service + ": memory limit");
            assertTrue(c.getResources().getRequests().containsKey("cpu"), service + ": cpu request");
        }
    }

    @Test
    void defaultResourcesFitThe300MiBJvmBudget() {
        Container c = deployment(Chart.render(Chart.Values.defaults()), "answer-service")
                .getSpec().getTemplate().getSpec().getContainers().get(0);
        long request = Quantity.getAmountInBytes(c.getResources().getRequests().get("memory")).longValue();
        long limit = Quantity.getAmountInBytes(c.getResources().getLimits().get("memory")).longValue();
        assertTrue(request >= 300L << 20, "request covers the 300 MiB RSS budget");
        assertTrue(limit > request && limit <= 512L << 20, "limit leaves headroom but stays near the budget");
    }

    /** services.<key> of values.yaml for each service's Deployment name. */
    static final Map<String, String> KEYS = Map.of("session-service", "session", "answer-service", "answer",
            "submission-service", "submission", "grading-saga", "grading");

    /**
     * image.flavor: each Deployment runs its service's JVM image (repository:tag, JAVA_TOOL_OPTIONS,
     * UID 185, defaults.resources) or its native image (repository:tag-native, the heap sizes and
     * system properties of javaToolOptions as args and no JAVA_TOOL_OPTIONS, UID 1001,
     * defaults.native.resources); jvm by default. A service's own services.<key>.resources are its JVM pods'.
     */
    @ParameterizedTest
    @ValueSource(strings = {"", "jvm", "native"})
    void theFlavourSelectsImageArgsEnvUserAndResources(String flavor) {
        Chart.Values values = flavor.isEmpty() ? Chart.Values.defaults() : Chart.Values.defaults().set("image.flavor", flavor);
        Chart.Rendered rendered = Chart.render(values);
        for (String service : SERVICES) {
            assertFlavor(rendered, service, flavor.equals("native"));
            JsonNode own = VALUES.path("services").path(KEYS.get(service)).path("resources"); // a JVM service's own (session-service's)
            JsonNode expected = flavor.equals("native") ? DEFAULTS.path("native").path("resources")
                    : own.isMissingNode() ? DEFAULTS.path("resources") : own;
            var resources = deployment(rendered, service).getSpec().getTemplate().getSpec().getContainers().get(0).getResources();
            for (String field : List.of("/requests/cpu", "/requests/memory", "/limits/cpu", "/limits/memory")) {
                var actual = (field.startsWith("/requests") ? resources.getRequests() : resources.getLimits()).get(field.substring(field.lastIndexOf('/') + 1));
                assertEquals(value(expected.at(field)), actual, service + " " + field);
            }
        }
    }

    /** A service may run the other flavour than the rest (services.<key>.image.flavor), with its own native resources. */
    @Test
    void eachServiceMayChooseItsFlavour() {
        Chart.Rendered oneNative = Chart.render(Chart.Values.defaults().set("services.answer.image.flavor", "native")
                .set("services.answer.native.resources.requests.cpu", "300m").set("services.answer.native.resources.requests.memory", "150Mi")
                .set("services.answer.native.resources.limits.memory", "200Mi"));
        for (String service : SERVICES) {
            assertFlavor(oneNative, service, service.equals("answer-service"));
        }
        Container answer = deployment(oneNative, "answer-service").getSpec().getTemplate().getSpec().getContainers().get(0);
        assertEquals(new Quantity("200Mi"), answer.getResources().getLimits().get("memory"), "per-service native resources");
        assertEquals(new Quantity("150Mi"), answer.getResources().getRequests().get("memory"), "per-service native resources");
        Chart.Rendered oneJvm = Chart.render(Chart.Values.defaults().set("image.flavor", "native")
                .set("services.session.image.flavor", "jvm"));
        for (String service : SERVICES) {
            assertFlavor(oneJvm, service, !service.equals("session-service"));
        }
    }

    /** ./exam images pins both flavours of a service: digest (JVM), nativeDigest (native); the flavour picks its own. */
    @Test
    void eachFlavourIsPinnedByItsOwnDigest() {
        String jvm = "sha256:" + "a".repeat(64);
        String nat = "sha256:" + "b".repeat(64);
        Chart.Values pinned = Chart.Values.defaults().set("image.registry", "127.0.0.1:5000").set("image.tag", "7.1")
                .set("services.grading.image.digest", jvm).set("services.grading.image.nativeDigest", nat);
        assertEquals("127.0.0.1:5000/examsuite/grading-saga:7.1@" + jvm, image(Chart.render(pinned), "grading-saga"));
        assertEquals("127.0.0.1:5000/examsuite/grading-saga:7.1-native@" + nat,
                image(Chart.render(pinned.set("image.flavor", "native")), "grading-saga"));
        assertEquals("127.0.0.1:5000/examsuite/answer-service:7.1-native",
                image(Chart.render(pinned.set("image.flavor", "native")), "answer-service"), "no nativeDigest: the tag alone");
    }

    /** ci/production-values.yaml runs the native images with its own (smaller) native resources. */
    @Test
    void productionValuesRunTheNativeImages() {
        Chart.Rendered rendered = Chart.render(Chart.Values.production());
        for (String service : SERVICES) {
            Deployment d = deployment(rendered, service);
            Container c = d.getSpec().getTemplate().getSpec().getContainers().get(0);
            assertEquals("registry.example.com/exam/examsuite/" + service + ":1.0.0-native", c.getImage());
            assertEquals(1001L, d.getSpec().getTemplate().getSpec().getSecurityContext().getRunAsUser(), service);
            assertFalse(env(c).containsKey("JAVA_TOOL_OPTIONS"), service);
        }
        Container answer = deployment(rendered, "answer-service").getSpec().getTemplate().getSpec().getContainers().get(0);
        assertEquals(new Quantity("160Mi"), answer.getResources().getRequests().get("memory"));
        Container grading = deployment(rendered, "grading-saga").getSpec().getTemplate().getSpec().getContainers().get(0);
        assertEquals(new Quantity("192Mi"), grading.getResources().getLimits().get("memory"));
    }

    static final JsonNode VALUES = Yaml.tree(K8sDir.read(K8sDir.CHART.resolve("values.yaml")));
    static final JsonNode DEFAULTS = VALUES.path("defaults");

    private static Quantity value(JsonNode node) {
        return new Quantity(node.asText());
    }

    private static String image(Chart.Rendered rendered, String service) {
        return deployment(rendered, service).getSpec().getTemplate().getSpec().getContainers().get(0).getImage();
    }

    private static void assertFlavor(Chart.Rendered rendered, String service, boolean nativeFlavor) {
        Deployment d = deployment(rendered, service);
        PodSpec pod = d.getSpec().getTemplate().getSpec();
        Container c = pod.getContainers().get(0);
        String version = d.getMetadata().getLabels().get("app.kubernetes.io/version");
        String what = service + (nativeFlavor ? " (native)" : " (jvm)");
        JsonNode own = VALUES.path("services").path(KEYS.get(service)).path("javaToolOptions");
        String javaToolOptions = own.isMissingNode() ? DEFAULTS.path("javaToolOptions").asText() : own.asText();
        assertEquals("registry.example.com/examsuite/" + service + ":" + version + (nativeFlavor ? "-native" : ""), c.getImage(), what);
        long user = nativeFlavor ? 1001 : 185;
        assertEquals(user, DEFAULTS.at(nativeFlavor ? "/native/runAsUser" : "/runAsUser").asLong(), "values.yaml's runAsUser");
        assertEquals(user, pod.getSecurityContext().getRunAsUser(), what);
        assertEquals(user, pod.getSecurityContext().getRunAsGroup(), what);
        assertEquals(user, pod.getSecurityContext().getFsGroup(), what);
        assertEquals(List.of(), c.getCommand(), what + ": the image's entrypoint runs");
        assertEquals("2", env(c).get("MALLOC_ARENA_MAX").getValue(), what);
        if (nativeFlavor) {
            assertFalse(env(c).containsKey("JAVA_TOOL_OPTIONS"), what + ": no JVM to read JAVA_TOOL_OPTIONS");
            String young = DEFAULTS.at("/native/youngGeneration").asText();
            List<String> expected = List.of(javaToolOptions.trim().split("\\s+")).stream()
                    .filter(f -> f.startsWith("-Xmx") || f.startsWith("-Xmn") || f.startsWith("-D"))
                    .map(f -> f.startsWith("-Xmn") && !young.isEmpty() ? "-Xmn" + young : f).toList();
            assertEquals(expected, c.getArgs(), what + ": javaToolOptions' heap limit and system properties, native.youngGeneration as arguments");
            assertTrue(young.isEmpty() || c.getArgs().contains("-Xmn" + young), what + ": the native young generation");
            assertEquals(1, c.getArgs().stream().filter(a -> a.startsWith("-Xmx")).count(), what + ": a heap limit");
            assertTrue(c.getArgs().contains("-Dvertx.disableURIValidation=true"), what);
        } else {
            assertEquals(javaToolOptions, env(c).get("JAVA_TOOL_OPTIONS").getValue(), what);
            assertEquals(List.of(), c.getArgs(), what + ": the image's own command line");
        }
    }

    @Test
    void eachServiceGetsOnlyTheKeysItNeeds() {
        Chart.Rendered rendered = Chart.render(Chart.Values.defaults());
        Map<String, Set<String>> keys = new LinkedHashMap<>();
        for (String service : SERVICES) {
            Container c = deployment(rendered, service).getSpec().getTemplate().getSpec().getContainers().get(0);
            keys.put(service, env(c).values().stream()
                    .filter(e -> e.getValueFrom() != null && e.getValueFrom().getSecretKeyRef() != null)
                    .filter(e -> "exam-suite-keys".equals(e.getValueFrom().getSecretKeyRef().getName()))
                    .map(EnvVar::getName).collect(Collectors.toSet()));
        }
        // Only session-service can mint candidate tokens.
        keys.forEach((service, held) -> assertEquals(service.equals("session-service"),
                held.contains("EXAM_CANDIDATE_PRIVATE_KEY"), service));
        keys.forEach((service, held) -> assertEquals(service.equals("submission-service"),
                held.contains("EXAM_PAPER_PRIVATE_KEY"), service));
        keys.forEach((service, held) -> assertEquals(service.equals("grading-saga"),
                held.contains("EXAM_ARCHIVE_PRIVATE_KEY"), service));
        keys.forEach((service, held) -> assertTrue(held.containsAll(Set.of("EXAM_CANDIDATE_PUBLIC_KEY",
                "EXAM_OPERATOR_PUBLIC_KEY", "EXAM_SERVICE_PRIVATE_KEY")), service));
        // Each service signs with its own key only, and verifies only the services that call its /internal API.
        Map<String, Set<String>> callers = Map.of("session-service", Set.of("answer-service", "submission-service",
                "grading-saga"), "answer-service", Set.of("session-service", "submission-service"),
                "submission-service", Set.of("session-service", "grading-saga"), "grading-saga", Set.of());
        for (String service : SERVICES) {
            Container c = deployment(rendered, service).getSpec().getTemplate().getSpec().getContainers().get(0);
            assertEquals(variable(service, "PRIVATE"),
                    env(c).get("EXAM_SERVICE_PRIVATE_KEY").getValueFrom().getSecretKeyRef().getKey(), service);
            Set<String> verifies = SERVICES.stream().filter(s -> keys.get(service).contains(variable(s, "PUBLIC")))
                    .collect(Collectors.toSet());
            assertEquals(callers.get(service), verifies, service);
            assertTrue(keys.get(service).stream().noneMatch(k -> k.matches("EXAM_.+_(SERVICE|SAGA)_PRIVATE_KEY")),
                    "no other service's private key: " + service);
        }
        // Only grading-saga verifies paper signatures.
        keys.forEach((service, held) -> assertEquals(service.equals("grading-saga"),
                held.contains("EXAM_PAPER_PUBLIC_KEY"), service));
    }

    /** EXAM_ANSWER_SERVICE_PUBLIC_KEY: the Secret's name for one service's key half. */
    private static String variable(String service, String half) {
        return "EXAM_" + service.toUpperCase(java.util.Locale.ROOT).replace('-', '_') + "_" + half + "_KEY";
    }

    @Test
    void configMapCarriesTheArchitectureVariables() {
        JsonNode data = Chart.render(Chart.Values.production()).get("ConfigMap", "exam-suite-config").path("data");
        assertEquals("exam-db.postgres.svc", data.path("EXAM_DB_HOST").asText());
        assertEquals("5432", data.path("EXAM_DB_PORT").asText());
        assertEquals("exam", data.path("EXAM_DB_NAME").asText());
        assertEquals("exam_app", data.path("EXAM_DB_USER").asText());
        assertEquals("cluster", data.path("QUARKUS_REDIS_CLIENT_TYPE").asText());
        assertEquals(3, data.path("EXAM_REDIS_URL").asText().split(",").length, "Redis Cluster seed nodes");
        assertEquals("http://exam-suite-session-service:8081", data.path("EXAM_SESSION_URL").asText());
        assertEquals("http://exam-suite-answer-service:8082", data.path("EXAM_ANSWER_URL").asText());
        assertEquals("http://exam-suite-submission-service:8083", data.path("EXAM_SUBMISSION_URL").asText());
        assertEquals("http://exam-suite-grading-saga:8084", data.path("EXAM_GRADING_URL").asText());
        // OpenTelemetry by its standard variables, as any OTel SDK reads them; every result traced unless lowered
        assertEquals("http://otel-collector.observability.svc:4317", data.path("OTEL_EXPORTER_OTLP_ENDPOINT").asText());
        assertEquals("false", data.path("OTEL_SDK_DISABLED").asText());
        assertEquals(1.0, Double.parseDouble(data.path("OTEL_TRACES_SAMPLER_ARG").asText()));
        assertTrue(data.path("OTEL_RESOURCE_ATTRIBUTES").asText().contains("k8s.namespace.name="), data.path("OTEL_RESOURCE_ATTRIBUTES").asText());
        assertFalse(data.has("EXAM_OTLP_ENDPOINT"), "the suite's old name is not what the chart sets");
        assertEquals("https://login.example.com/realms/exams", data.path("EXAM_OPERATOR_ISSUER").asText());
        assertEquals("RS256", data.path("EXAM_OPERATOR_SIGNATURE_ALGORITHM").asText());
        assertFalse(data.has("EXAM_DB_PASSWORD"), "passwords are never in a ConfigMap");
        assertEquals("25s", data.path("QUARKUS_SHUTDOWN_TIMEOUT").asText(), "drains within the grace period");
    }

    @Test
    void staffSignInThroughTheOrganisationsProviderIsOffUntilItIsNamed() {
        JsonNode off = Chart.render(Chart.Values.defaults()).get("ConfigMap", "exam-suite-config").path("data");
        assertFalse(off.has("EXAM_STAFF_SIGN_IN"), "off by default: the services then contact no identity provider");
        JsonNode on = Chart.render(Chart.Values.defaults().set("auth.staff.enabled", true)
                .set("auth.staff.issuer", "https://login.example.com/realms/exams")).get("ConfigMap", "exam-suite-config").path("data");
        assertEquals("true", on.path("EXAM_STAFF_SIGN_IN").asText());
        assertEquals("https://login.example.com/realms/exams", on.path("EXAM_STAFF_ISSUER").asText());
        assertEquals("exam-operator", on.path("EXAM_STAFF_AUDIENCE").asText());
        assertEquals("groups", on.path("EXAM_STAFF_ROLE_CLAIM").asText());
        assertEquals("RS256", on.path("EXAM_STAFF_SIGNATURE_ALGORITHM").asText());
        Exception noIssuer = assertThrows(Exception.class, () -> Chart.template(Chart.Values.defaults().set("auth.staff.enabled", true)));
        assertTrue(noIssuer.getMessage().contains("auth.staff.issuer"), noIssuer.getMessage());
        assertThrows(Exception.class, () -> Chart.template(Chart.Values.defaults().set("auth.staff.enabled", true)
                .set("auth.staff.issuer", "http://login.example.com/realms/exams")), "plain http only on loopback");
    }

    @Test
    void theConsoleSignsInThroughTheSameProviderWhenStaffSignInIsOn() {
        Chart.Rendered off = Chart.render(Chart.Values.defaults().set("frontend.enabled", true));
        assertTrue(off.find("ConfigMap", "exam-suite-exam-client-console").isEmpty(), "the image's own: pasted tokens");
        Chart.Rendered on = Chart.render(Chart.Values.defaults().set("frontend.enabled", true).set("auth.staff.enabled", true)
                .set("auth.staff.issuer", "https://login.example.com/realms/exams/"));
        JsonNode data = on.get("ConfigMap", "exam-suite-exam-client-console").path("data");
        assertEquals("{\"clientId\":\"exam-console\",\"issuer\":\"https://login.example.com/realms/exams\"}",
                data.path("console-config.json").asText());
        assertEquals("set $idp_origin \"https://login.example.com\";\n", data.path("console-idp.conf").asText());
        Deployment page = Yaml.convert(on.get("Deployment", "exam-suite-exam-client"), Deployment.class);
        assertTrue(page.getSpec().getTemplate().getSpec().getContainers().get(0).getVolumeMounts().stream()
                .anyMatch(m -> "/etc/exam-client".equals(m.getMountPath()) && Boolean.TRUE.equals(m.getReadOnly())),
                "nginx reads the console's settings from /etc/exam-client (images/exam-client-nginx.conf)");
    }

    @Test
    void inlineKeysAndPasswordsBecomeSecrets() {
        Chart.Values values = Chart.Values.defaults().set("keys.existingSecret", "")
                .set("database.password", "db-secret").set("redis.password", "redis-secret");
        for (String key : List.of("EXAM_CANDIDATE_PUBLIC_KEY", "EXAM_CANDIDATE_PRIVATE_KEY", "EXAM_OPERATOR_PUBLIC_KEY",
                "EXAM_SESSION_SERVICE_PUBLIC_KEY", "EXAM_SESSION_SERVICE_PRIVATE_KEY", "EXAM_ANSWER_SERVICE_PUBLIC_KEY",
                "EXAM_ANSWER_SERVICE_PRIVATE_KEY", "EXAM_SUBMISSION_SERVICE_PUBLIC_KEY", "EXAM_SUBMISSION_SERVICE_PRIVATE_KEY",
                "EXAM_GRADING_SAGA_PUBLIC_KEY", "EXAM_GRADING_SAGA_PRIVATE_KEY", "EXAM_PAPER_PRIVATE_KEY", "EXAM_PAPER_PUBLIC_KEY",
                "EXAM_ARCHIVE_PRIVATE_KEY", "EXAM_ARCHIVE_PUBLIC_KEY")) {
            values = values.set("keys.inline." + key, "PEM-" + key);
        }
        Chart.Rendered rendered = Chart.render(values);
        JsonNode keys = rendered.get("Secret", "exam-suite-keys").path("stringData");
        assertEquals("PEM-EXAM_PAPER_PRIVATE_KEY", keys.path("EXAM_PAPER_PRIVATE_KEY").asText());
        JsonNode credentials = rendered.get("Secret", "exam-suite-credentials").path("stringData");
        assertEquals("db-secret", credentials.path("EXAM_DB_PASSWORD").asText());
        assertEquals("redis-secret", credentials.path("EXAM_REDIS_PASSWORD").asText());
        // No trace of a Secret's content in the pod template (a hash of a password could be tested against guesses);
        // a bumped secretsRevision rolls the pods.
        Map<String, String> before = deployment(Chart.render(Chart.Values.defaults()), "answer-service").getSpec()
                .getTemplate().getMetadata().getAnnotations();
        Map<String, String> withSecrets = deployment(rendered, "answer-service").getSpec().getTemplate().getMetadata()
                .getAnnotations();
        assertEquals(before, withSecrets, "inline keys and passwords leave the pod template as it was");
        Map<String, String> bumped = deployment(Chart.render(values.set("secretsRevision", 2)), "answer-service").getSpec()
                .getTemplate().getMetadata().getAnnotations();
        assertEquals("1", withSecrets.get("exam-suite/secrets-revision"));
        assertEquals("2", bumped.get("exam-suite/secrets-revision"));
        assertFalse(withSecrets.keySet().stream().anyMatch(k -> k.startsWith("checksum/secrets")));
    }

    @ParameterizedTest
    @MethodSource("bothValueSets")
    void ingressRoutesExactlyThePublicPrefixes(Chart.Values values) {
        Ingress ingress = Yaml.convert(Chart.render(values).get("Ingress", "exam-suite"), Ingress.class);
        Map<String, String> routes = new TreeMap<>();
        ingress.getSpec().getRules().get(0).getHttp().getPaths().forEach(p -> {
            assertEquals("Prefix", p.getPathType());
            assertEquals("http", p.getBackend().getService().getPort().getName());
            routes.put(p.getPath(), p.getBackend().getService().getName());
        });
        routes.keySet().forEach(path -> {
            assertFalse(path.startsWith("/internal") || path.startsWith("/q"), "never routed: " + path);
        });
        Map<String, String> expected = new TreeMap<>(Map.of(
                "/api/v1/exams", fullName("session-service"),
                "/api/v1/sessions", fullName("session-service"),
                "/api/v1/audit", fullName("session-service"),
                "/api/v1/answers", fullName("answer-service"),
                "/api/v1/submissions", fullName("submission-service"),
                "/api/v1/results", fullName("grading-saga"),
                "/api/v1/sagas", fullName("grading-saga"),
                "/api/v1/archive", fullName("grading-saga")));
        boolean frontend = values.files().contains(K8sDir.PRODUCTION_VALUES);
        if (frontend) {
            // The optional reference client at "/": a Prefix "/" route goes to it, never to a service's /q or /internal.
            expected.put("/", "exam-suite-exam-client");
        }
        assertEquals(expected, routes);
        // The WebSocket /api/v1/sessions/{id}/live stays open for a whole exam behind ingress-nginx.
        Map<String, String> annotations = ingress.getMetadata().getAnnotations();
        assertEquals("3600", annotations.get("nginx.ingress.kubernetes.io/proxy-read-timeout"));
        assertEquals("3600", annotations.get("nginx.ingress.kubernetes.io/proxy-send-timeout"));
        assertEquals(frontend, ingress.getSpec().getTls() != null && !ingress.getSpec().getTls().isEmpty());
    }

    @Test
    void withItsOpenTelemetryModuleTheIngressDoesNotTrustACallersTraceContext() {
        JsonNode plain = Chart.render(Chart.Values.defaults()).get("Ingress", "exam-suite").at("/metadata/annotations");
        assertTrue(plain.path("nginx.ingress.kubernetes.io/enable-opentelemetry").isMissingNode(), "off unless asked for");
        assertEquals("2m", plain.path("nginx.ingress.kubernetes.io/proxy-body-size").asText());
        JsonNode traced = Chart.render(Chart.Values.defaults().set("ingress.openTelemetry", true)).get("Ingress", "exam-suite")
                .at("/metadata/annotations");
        assertEquals("true", traced.path("nginx.ingress.kubernetes.io/enable-opentelemetry").asText());
        assertEquals("false", traced.path("nginx.ingress.kubernetes.io/opentelemetry-trust-incoming-span").asText());
        assertEquals("2m", traced.path("nginx.ingress.kubernetes.io/proxy-body-size").asText(), "the other annotations stay");
    }

    @Test
    void httpRouteOffersTheIngressRoutesWithTheLongTimeoutOnlyOnTheLiveChannel() {
        assertTrue(Chart.render(Chart.Values.defaults()).find("HTTPRoute", "exam-suite").isEmpty(), "off by default");
        Chart.Rendered rendered = Chart.render(Chart.Values.defaults().set("httpRoute.enabled", true).set("ingress.enabled", false));
        assertTrue(rendered.find("Ingress", "exam-suite").isEmpty());
        JsonNode spec = rendered.get("HTTPRoute", "exam-suite").path("spec");
        assertEquals("exam-gateway", spec.at("/parentRefs/0/name").asText());
        assertEquals("exam.example.com", spec.at("/hostnames/0").asText());
        Map<String, String> prefixes = new TreeMap<>();
        int longTimeouts = 0;
        for (JsonNode rule : spec.path("rules")) {
            String backend = rule.at("/backendRefs/0/name").asText();
            for (JsonNode match : rule.path("matches")) {
                String path = match.at("/path/value").asText();
                if (match.at("/path/type").asText().equals("RegularExpression")) {
                    assertEquals("^/api/v1/(sessions|exams)/[^/]+/live$", path);
                    assertTrue("/api/v1/sessions/s-1/live".matches(path.substring(1, path.length() - 1)));
                    assertEquals(fullName("session-service"), backend);
                    assertEquals("3600s", rule.at("/timeouts/request").asText());
                    assertEquals("3600s", rule.at("/timeouts/backendRequest").asText());
                    longTimeouts++;
                } else {
                    assertEquals("PathPrefix", match.at("/path/type").asText());
                    assertEquals("60s", rule.at("/timeouts/request").asText(), path + ": short timeout");
                    prefixes.put(path, backend);
                }
            }
        }
        assertEquals(1, longTimeouts);
        for (JsonNode rule : spec.path("rules")) { // a trace context from the internet never reaches a service
            assertEquals("RequestHeaderModifier", rule.at("/filters/0/type").asText(), rule.toString());
            assertEquals("[\"traceparent\",\"tracestate\",\"baggage\"]", rule.at("/filters/0/requestHeaderModifier/remove").toString());
        }
        JsonNode trusted = Chart.render(Chart.Values.defaults().set("httpRoute.enabled", true).set("otel.trustIncomingTraceContext", true))
                .get("HTTPRoute", "exam-suite").path("spec");
        assertTrue(trusted.at("/rules/0/filters").isMissingNode(), "trusted: passed on");
        assertEquals(new TreeMap<>(Map.of("/api/v1/exams", fullName("session-service"), "/api/v1/sessions", fullName("session-service"),
                "/api/v1/audit", fullName("session-service"), "/api/v1/answers", fullName("answer-service"),
                "/api/v1/submissions", fullName("submission-service"), "/api/v1/results", fullName("grading-saga"),
                "/api/v1/sagas", fullName("grading-saga"), "/api/v1/archive", fullName("grading-saga"))), prefixes,
                "the Ingress's public prefixes; never /internal or /q");
        JsonNode withFrontend = Chart.render(Chart.Values.defaults().set("httpRoute.enabled", true).set("frontend.enabled", true))
                .get("HTTPRoute", "exam-suite").path("spec");
        JsonNode last = withFrontend.path("rules").get(withFrontend.path("rules").size() - 1);
        assertEquals("/", last.at("/matches/0/path/value").asText());
        assertEquals("exam-suite-exam-client", last.at("/backendRefs/0/name").asText());
    }

    @Test
    void frontendIsOptional() {
        assertTrue(Chart.render(Chart.Values.defaults()).find("Deployment", "exam-suite-exam-client").isEmpty());
        Chart.Rendered with = Chart.render(Chart.Values.defaults().set("frontend.enabled", true));
        with.get("Deployment", "exam-suite-exam-client");
        with.get("Service", "exam-suite-exam-client");
    }

    @Test
    void frontendHasAPodDisruptionBudgetAndANetworkPolicyLikeTheServices() {
        Chart.Rendered with = Chart.render(Chart.Values.defaults().set("frontend.enabled", true));
        JsonNode pdb = with.get("PodDisruptionBudget", "exam-suite-exam-client").path("spec");
        assertEquals(1, pdb.path("minAvailable").asInt());
        assertEquals("exam-client", pdb.at("/selector/matchLabels/app.kubernetes.io~1name").asText());
        JsonNode policy = with.get("NetworkPolicy", "exam-suite-exam-client").path("spec");
        assertEquals("exam-client", policy.at("/podSelector/matchLabels/app.kubernetes.io~1name").asText());
        assertEquals(1, policy.path("ingress").size());
        assertEquals(1, policy.at("/ingress/0/from").size(), "only the ingress controller");
        assertEquals("ingress-nginx", policy.at("/ingress/0/from/0/podSelector/matchLabels/app.kubernetes.io~1name").asText());
        assertTrue(policy.path("egress").isMissingNode());
        JsonNode restricted = Chart.render(Chart.Values.defaults().set("frontend.enabled", true)
                .set("networkPolicy.egress.enabled", true).set("networkPolicy.egress.to[0].ipBlock.cidr", "10.0.5.0/24"))
                .get("NetworkPolicy", "exam-suite-exam-client").path("spec");
        assertTrue(restricted.path("egress").isArray() && restricted.path("egress").isEmpty(), "static files: no egress");
        Chart.Rendered without = Chart.render(Chart.Values.defaults().set("frontend.enabled", true)
                .set("podDisruptionBudget.enabled", false).set("networkPolicy.enabled", false));
        assertTrue(without.find("PodDisruptionBudget", "exam-suite-exam-client").isEmpty());
        assertTrue(without.find("NetworkPolicy", "exam-suite-exam-client").isEmpty());
    }

    @Test
    void networkPoliciesAdmitIngressControllerPrometheusAndOnlyTheInternalCallers() {
        Chart.Rendered rendered = Chart.render(Chart.Values.defaults());
        Map<String, Set<String>> expectedCallers = Map.of(
                "session-service", Set.of("answer-service", "submission-service", "grading-saga"),
                "answer-service", Set.of("submission-service", "session-service"),
                "submission-service", Set.of("session-service", "grading-saga"),
                "grading-saga", Set.of());
        for (String service : SERVICES) {
            NetworkPolicy policy = Yaml.convert(rendered.get("NetworkPolicy", fullName(service)), NetworkPolicy.class);
            assertEquals(List.of("Ingress"), policy.getSpec().getPolicyTypes());
            var rule = policy.getSpec().getIngress().get(0);
            assertEquals("http", rule.getPorts().get(0).getPort().getStrVal());
            var peers = rule.getFrom();
            assertEquals("ingress-nginx", peers.get(0).getNamespaceSelector().getMatchLabels().get("kubernetes.io/metadata.name"));
            assertEquals("monitoring", peers.get(1).getNamespaceSelector().getMatchLabels().get("kubernetes.io/metadata.name"));
            Set<String> callers = peers.stream().skip(2)
                    .peek(p -> assertNull(p.getNamespaceSelector(), "suite callers are in the release's namespace"))
                    // `helm test`'s Pod is admitted too (HelmTestPodTest); it calls the public API only
                    .filter(p -> !"smoke-test".equals(p.getPodSelector().getMatchLabels().get("app.kubernetes.io/component")))
                    .map(p -> p.getPodSelector().getMatchLabels().get("app.kubernetes.io/name"))
                    .collect(Collectors.toSet());
            assertEquals(expectedCallers.get(service), callers, service);
        }
        NetworkPolicy locked = Yaml.convert(Chart.render(Chart.Values.production())
                .get("NetworkPolicy", fullName("answer-service")), NetworkPolicy.class);
        assertEquals(List.of("Ingress", "Egress"), locked.getSpec().getPolicyTypes());
    }

    @Test
    void autoscalingOwnsReplicasAndWithoutItTheDeploymentDoes() {
        assertNull(deployment(Chart.render(Chart.Values.defaults()), "answer-service").getSpec().getReplicas(),
                "with a scaler, helm upgrade must not reset the replica count mid-exam");
        Chart.Rendered fixed = Chart.render(Chart.Values.defaults().set("autoscaling.enabled", false));
        assertEquals(2, deployment(fixed, "answer-service").getSpec().getReplicas());
        assertTrue(fixed.ofKind("ScaledObject").isEmpty());
        assertTrue(fixed.ofKind("HorizontalPodAutoscaler").isEmpty());
    }

    @Test
    void migrationsRunAtStartUnderAnAdvisoryLockNotInHooks() {
        Chart.Rendered rendered = Chart.render(Chart.Values.production());
        assertTrue(rendered.ofKind("Job").isEmpty(), "no migration Job: Flyway migrates at start (see docs/operations.md)");
        for (String service : SERVICES) {
            Container c = deployment(rendered, service).getSpec().getTemplate().getSpec().getContainers().get(0);
            assertTrue(c.getStartupProbe().getFailureThreshold() * c.getStartupProbe().getPeriodSeconds() >= 120,
                    service + ": the startup probe leaves migrations time");
        }
        assertEquals(NAMESPACE, "exam");
    }

    /**
     * What each Deployment's container gets for Redis (the ConfigMap through envFrom, nothing
     * overriding it in env): cluster mode gives the seed list, the cluster client type and one
     * replica's acknowledgement per autosave; standalone one URL and none; an explicit
     * redis.waitReplicas (0 included, which Helm's "if" would take for unset) wins over auto.
     */
    @Test
    void redisClusterModeGivesEveryServiceTheSeedsTheClusterClientAndReplicaAcks() {
        List<String> seeds = List.of("redis://redis-cluster-0.redis-cluster.redis.svc:6379",
                "redis://redis-cluster-1.redis-cluster.redis.svc:6379",
                "redis://redis-cluster-2.redis-cluster.redis.svc:6379");
        assertRedisEnv(Chart.render(Chart.Values.production()), String.join(",", seeds), "cluster", "1");
        assertRedisEnv(Chart.render(Chart.Values.defaults()), "redis://redis:6379", "standalone", "0");
        Chart.Values cluster = Chart.Values.defaults().set("redis.mode", "cluster");
        for (int i = 0; i < seeds.size(); i++) {
            cluster = cluster.set("redis.urls[" + i + "]", seeds.get(i));
        }
        assertRedisEnv(Chart.render(cluster), String.join(",", seeds), "cluster", "1");
        assertRedisEnv(Chart.render(cluster.set("redis.waitReplicas", 0)), String.join(",", seeds), "cluster", "0");
        assertRedisEnv(Chart.render(Chart.Values.defaults().set("redis.waitReplicas", 1)), "redis://redis:6379",
                "standalone", "1");
    }

    private static void assertRedisEnv(Chart.Rendered rendered, String url, String clientType, String waitReplicas) {
        JsonNode data = rendered.get("ConfigMap", "exam-suite-config").path("data");
        assertEquals(url, data.path("EXAM_REDIS_URL").asText());
        assertEquals(clientType, data.path("QUARKUS_REDIS_CLIENT_TYPE").asText());
        assertEquals(waitReplicas, data.path("EXAM_REDIS_WAIT_REPLICAS").asText());
        for (String service : SERVICES) {
            Container c = deployment(rendered, service).getSpec().getTemplate().getSpec().getContainers().get(0);
            assertTrue(c.getEnvFrom().stream().anyMatch(from -> from.getConfigMapRef() != null
                    && "exam-suite-config".equals(from.getConfigMapRef().getName())), service + " reads the ConfigMap");
            Map<String, EnvVar> env = env(c);
            for (String name : List.of("EXAM_REDIS_URL", "QUARKUS_REDIS_CLIENT_TYPE", "EXAM_REDIS_WAIT_REPLICAS",
                    "QUARKUS_REDIS_HOSTS")) {
                assertFalse(env.containsKey(name), service + ": " + name + " in env would override the ConfigMap");
            }
        }
    }
}
