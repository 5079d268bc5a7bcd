package org.examsuite.k8s;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * ./exam images' checks (docs/operations.md, "Images"): what the chart, rendered with the values
 * file the command wrote (.exam/images/values.yaml: registry, tag, digests), deploys is exactly what
 * was pushed, and every pushed image is fit for the pod the chart makes of it — read back from the
 * registry's HTTP API (manifest, config, every layer), not from the build's own notes. The native
 * images (tag "-native", nativeDigest in the file: built when the service's native executable was)
 * are checked in a render with image.flavor native for those services.
 * Runs only in the images profile (mvn -Pimages -Dexam.images.values=FILE), after a push.
 */
@Tag("images")
class PushedImagesTest {

    /** Compressed size limits (manifest layers + config): a JVM service, the exam page. */
    static final long JVM_IMAGE_LIMIT = 100L << 20;
    static final long PAGE_IMAGE_LIMIT = 16L << 20;
    static final List<String> LABELS = List.of("title", "description", "version", "revision", "created", "vendor", "licenses");
    static final String ACCEPT = "application/vnd.oci.image.manifest.v1+json, application/vnd.docker.distribution.manifest.v2+json";
    static final Pattern REF = Pattern.compile("^([^/]+)/(.+):([A-Za-z0-9_][A-Za-z0-9_.-]*)@(sha256:[0-9a-f]{64})$");

    static final HttpClient HTTP = HttpClient.newHttpClient();
    static JsonNode values;
    static String registry;
    static String tag;
    static List<Workload> workloads;
    /** The native Deployments of a render with services.<key>.image.flavor=native where a nativeDigest was pushed. */
    static List<Workload> nativeWorkloads = List.of();

    /** One container of the render: where its image runs and as what. */
    record Workload(String name, String container, String image, long runAsUser, Set<Integer> ports, String javaToolOptions,
            List<String> args) {
        boolean isNative() {
            return image.contains("-native@");
        }
    }

    static List<Workload> all() {
        List<Workload> all = new ArrayList<>(workloads);
        all.addAll(nativeWorkloads);
        return all;
    }

    @BeforeAll
    static void render() {
        String file = System.getProperty("exam.images.values", "");
        assertFalse(file.isBlank(), "-Dexam.images.values=FILE (written by ./exam images) is required");
        Path path = Path.of(file);
        values = Yaml.tree(K8sDir.read(path));
        registry = values.path("image").path("registry").asText();
        tag = values.path("image").path("tag").asText();
        assertFalse(registry.isBlank() || tag.isBlank(), "the values file names no registry or tag");
        workloads = workloads(Chart.render(Chart.Values.defaults().file(path)).objects());
        Chart.Values natives = Chart.Values.defaults().file(path);
        int count = 0;
        for (var s = values.path("services").fields(); s.hasNext(); ) {
            var service = s.next();
            if (!service.getValue().path("image").path("nativeDigest").asText().isBlank()) {
                natives = natives.set("services." + service.getKey() + ".image.flavor", "native");
                count++;
            }
        }
        if (count > 0) {
            nativeWorkloads = workloads(Chart.render(natives).objects()).stream().filter(Workload::isNative).toList();
            assertEquals(count, nativeWorkloads.size(), "one native Deployment per pushed native image");
        }
        System.out.printf("checking %d images and %d native images%n", workloads.size(), nativeWorkloads.size());
    }

    /** Every image reference in the render names a pushed registry/repository:tag@digest, and nothing else. */
    @Test
    void theChartDeploysExactlyWhatWasPushed() throws Exception {
        Map<String, String> pushed = new TreeMap<>(); // repository -> digest, from the values file
        values.path("services").forEach(s -> pushed.put(s.path("image").path("repository").asText(), s.path("image").path("digest").asText()));
        JsonNode fe = values.path("frontend").path("image");
        pushed.put(fe.path("repository").asText(), fe.path("digest").asText());
        assertEquals(5, pushed.size(), "four services and the exam page pushed: " + pushed);

        Set<String> referenced = new TreeSet<>();
        for (Workload w : workloads) {
            Matcher m = REF.matcher(w.image());
            assertTrue(m.matches(), w.name() + ": image " + w.image() + " is not registry/repository:tag@sha256:digest");
            assertEquals(registry, m.group(1), w.name() + ": registry");
            assertEquals(tag, m.group(3), w.name() + ": tag");
            assertEquals(pushed.get(m.group(2)), m.group(4), w.name() + ": digest of " + m.group(2));
            // The tag in the registry names that very manifest (not an older push).
            HttpResponse<byte[]> head = get("/v2/" + m.group(2) + "/manifests/" + tag);
            assertEquals(200, head.statusCode(), "manifest " + m.group(2) + ":" + tag);
            assertEquals(m.group(4), head.headers().firstValue("Docker-Content-Digest").orElse(""), m.group(2) + ":" + tag + " digest");
            assertEquals(m.group(4), sha256(head.body()), "manifest bytes of " + m.group(2));
            referenced.add(m.group(2));
        }
        assertEquals(pushed.keySet(), referenced, "every pushed image is deployed by the chart (frontend enabled)");
        assertEquals(5, workloads.size(), "five containers in the render: " + workloads);
        for (Workload w : nativeWorkloads) {
            Matcher m = REF.matcher(w.image());
            assertTrue(m.matches(), w.name() + ": image " + w.image() + " is not registry/repository:tag@sha256:digest");
            assertEquals(registry, m.group(1), w.name() + ": registry");
            assertEquals(tag + "-native", m.group(3), w.name() + ": native tag");
            String digest = null;
            for (JsonNode s : values.path("services")) {
                if (s.path("image").path("repository").asText().equals(m.group(2))) {
                    digest = s.path("image").path("nativeDigest").asText();
                }
            }
            assertEquals(digest, m.group(4), w.name() + ": nativeDigest of " + m.group(2));
            HttpResponse<byte[]> head = get("/v2/" + m.group(2) + "/manifests/" + m.group(3));
            assertEquals(200, head.statusCode(), "manifest " + m.group(2) + ":" + m.group(3));
            assertEquals(m.group(4), sha256(head.body()), "manifest bytes of " + m.group(2) + ":" + m.group(3));
        }
    }

    /** Non-root user (the chart's runAsUser), the chart's port exposed, OCI labels, size limit, layers present. */
    @Test
    void everyImageFitsThePodTheChartMakesOfIt() throws Exception {
        List<String> failures = new ArrayList<>();
        for (Workload w : all()) {
            Image image = Image.read(w.image());
            JsonNode config = image.config().path("config");
            String user = config.path("User").asText();
            String uid = user.split(":")[0];
            if (uid.isBlank() || uid.equals("0") || uid.equals("root")) {
                failures.add(w.name() + ": runs as root (User '" + user + "')");
            } else if (!uid.equals(Long.toString(w.runAsUser()))) {
                failures.add(w.name() + ": image user " + user + " but the chart's runAsUser is " + w.runAsUser());
            }
            Set<String> exposed = new TreeSet<>();
            config.path("ExposedPorts").fieldNames().forEachRemaining(exposed::add);
            for (int port : w.ports()) {
                if (!exposed.contains(port + "/tcp")) {
                    failures.add(w.name() + ": the chart's containerPort " + port + " is not exposed (" + exposed + ")");
                }
            }
            if (config.path("Entrypoint").isEmpty()) {
                failures.add(w.name() + ": no entrypoint");
            }
            String repository = image.repository();
            for (String label : LABELS) {
                String value = config.path("Labels").path("org.opencontainers.image." + label).asText();
                if (value.isBlank()) {
                    failures.add(w.name() + ": label org.opencontainers.image." + label + " missing");
                }
            }
            assertEquals(repository.substring(repository.lastIndexOf('/') + 1),
                    config.path("Labels").path("org.opencontainers.image.title").asText(), w.name() + ": title label");
            assertEquals(tag, config.path("Labels").path("org.opencontainers.image.version").asText(), w.name() + ": version label");
            long limit = w.javaToolOptions() == null && !w.isNative() ? PAGE_IMAGE_LIMIT : JVM_IMAGE_LIMIT;
            if (image.size() > limit) {
                failures.add(w.name() + ": " + image.size() + " bytes compressed, over the limit of " + limit);
            }
            System.out.printf("image %s: %d layers, %.1f MiB compressed (limit %d MiB), user %s, ports %s%n",
                    repository, image.manifest().path("layers").size(), image.size() / 1048576.0, limit >> 20, user, exposed);
        }
        if (!failures.isEmpty()) {
            fail(String.join("\n", failures));
        }
    }

    /** The entrypoint's program and the jar it runs are files of the image's layers. */
    @Test
    void theEntrypointIsInTheImage() throws Exception {
        for (Workload w : all()) {
            Image image = Image.read(w.image());
            JsonNode config = image.config().path("config");
            Map<String, Character> files = image.files();
            List<String> entrypoint = new ArrayList<>();
            config.path("Entrypoint").forEach(e -> entrypoint.add(e.asText()));
            String program = entrypoint.get(0);
            String found = null;
            if (program.startsWith("/")) {
                found = files.containsKey(program) ? program : null;
            } else {
                for (JsonNode env : config.path("Env")) {
                    if (env.asText().startsWith("PATH=")) {
                        for (String dir : env.asText().substring(5).split(":")) {
                            if (found == null && files.containsKey(dir + "/" + program)) {
                                found = dir + "/" + program;
                            }
                        }
                    }
                }
            }
            assertTrue(found != null, w.name() + ": entrypoint program " + program + " is not in the image");
            assertEquals('0', files.get(found), w.name() + ": " + found + " is a regular file");
            int jar = entrypoint.indexOf("-jar");
            if (jar >= 0) {
                String path = entrypoint.get(jar + 1);
                String absolute = path.startsWith("/") ? path : config.path("WorkingDir").asText() + "/" + path;
                assertTrue(files.containsKey(absolute), w.name() + ": " + absolute + " (-jar) is not in the image");
            }
        }
    }

    /** The services' JVM flags in the image are ./exam's (java_opts_for) and the chart's javaToolOptions. */
    @Test
    void theJvmFlagsAreTheSuitesFlags() throws Exception {
        int services = 0;
        for (Workload w : workloads) {
            if (w.javaToolOptions() == null) {
                continue;
            }
            services++;
            Image image = Image.read(w.image());
            List<String> flags = new ArrayList<>();
            for (JsonNode e : image.config().path("config").path("Entrypoint")) {
                if (e.asText().equals("-jar")) {
                    break;
                }
                if (isSuiteFlag(e.asText())) {
                    flags.add(e.asText());
                }
            }
            // On a ubi openjdk base (run-java.sh) Quarkus hands the JVM arguments over in JAVA_OPTS_APPEND.
            for (JsonNode env : image.config().path("config").path("Env")) {
                if (env.asText().startsWith("JAVA_OPTS_APPEND=")) {
                    for (String flag : env.asText().substring(17).trim().split("\\s+")) {
                        if (isSuiteFlag(flag)) {
                            flags.add(flag);
                        }
                    }
                }
            }
            String service = image.repository().substring(image.repository().lastIndexOf('/') + 1);
            String exam = System.getProperty("exam.images.jvm." + service, "");
            assertFalse(exam.isBlank(), "-Dexam.images.jvm." + service + " (./exam's java_opts_for) is required");
            assertEquals(effective(List.of(exam.trim().split("\\s+"))), effective(flags), service + ": image flags vs ./exam's");
            assertEquals(effective(List.of(w.javaToolOptions().trim().split("\\s+"))), effective(flags),
                    service + ": image flags vs the chart's javaToolOptions");
        }
        assertEquals(4, services, "four JVM services in the render");
    }

    /**
     * A native image's command line (Cmd) is the heap sizes and system properties of ./exam's flags
     * (what ./exam up --native passes), and the chart's args for it are the same.
     */
    @Test
    void theNativeArgumentsAreTheSuitesHeapSizesAndProperties() throws Exception {
        for (Workload w : nativeWorkloads) {
            Image image = Image.read(w.image());
            List<String> cmd = new ArrayList<>();
            image.config().path("config").path("Cmd").forEach(e -> cmd.add(e.asText()));
            String service = image.repository().substring(image.repository().lastIndexOf('/') + 1);
            String exam = System.getProperty("exam.images.native." + service, "");
            assertFalse(exam.isBlank(), "-Dexam.images.native." + service + " (./exam's native_opts_for) is required");
            List<String> expected = List.of(exam.trim().split("\\s+"));
            assertEquals(expected, cmd, service + ": the native image's Cmd vs ./exam's heap sizes and properties");
            assertEquals(cmd, w.args(), service + ": the chart's args vs the image's Cmd");
            assertEquals(Yaml.tree("[/app/service]"), image.config().path("config").path("Entrypoint"), service + ": entrypoint");
        }
    }

    /** The JVM options and system properties ./exam sets; the log manager property is Quarkus's own. */
    static boolean isSuiteFlag(String arg) {
        return arg.startsWith("-X") || arg.startsWith("-D") && !arg.startsWith("-Djava.util.logging.manager=");
    }

    /** What a list of -X flags amounts to for the JVM: the last value of each option wins. */
    static Map<String, String> effective(List<String> flags) {
        Map<String, String> out = new TreeMap<>();
        for (String flag : flags) {
            String key;
            String value;
            if (flag.startsWith("-XX:+") || flag.startsWith("-XX:-")) {
                key = flag.substring(5);
                value = flag.substring(4, 5);
            } else if (flag.startsWith("-XX:") && flag.contains("=")) {
                key = flag.substring(4, flag.indexOf('='));
                value = flag.substring(flag.indexOf('=') + 1);
            } else if (flag.matches("-X(ms|mx|mn|ss).+")) {
                key = flag.substring(0, 4);
                value = flag.substring(4);
            } else {
                key = flag;
                value = "";
            }
            out.put(key, value);
        }
        return out;
    }

    /** Each container of each pod template in the render, with what the chart runs it as. */
    static List<Workload> workloads(List<ObjectNode> objects) {
        List<Workload> out = new ArrayList<>();
        for (ObjectNode o : objects) {
            JsonNode pod = o.path("spec").path("template").path("spec");
            if (pod.isMissingNode()) {
                pod = o.path("spec").path("jobTemplate").path("spec").path("template").path("spec");
            }
            for (String list : List.of("initContainers", "containers")) {
                for (JsonNode c : pod.path(list)) {
                    long user = c.path("securityContext").path("runAsUser").asLong(pod.path("securityContext").path("runAsUser").asLong(-1));
                    Set<Integer> ports = new TreeSet<>();
                    c.path("ports").forEach(p -> ports.add(p.path("containerPort").asInt()));
                    String jto = null;
                    for (JsonNode env : c.path("env")) {
                        if (env.path("name").asText().equals("JAVA_TOOL_OPTIONS")) {
                            jto = env.path("value").asText();
                        }
                    }
                    List<String> args = new ArrayList<>();
                    c.path("args").forEach(a -> args.add(a.asText()));
                    out.add(new Workload(o.path("metadata").path("name").asText(), c.path("name").asText(), c.path("image").asText(), user, ports, jto, args));
                }
            }
        }
        assertFalse(out.isEmpty(), "no containers in the render");
        return out;
    }

    static HttpResponse<byte[]> get(String path) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://" + registry + path)).header("Accept", ACCEPT).build(),
                HttpResponse.BodyHandlers.ofByteArray());
    }

    static String sha256(byte[] bytes) throws Exception {
        return "sha256:" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    }

    /** A pushed image as the registry serves it, cached per reference. */
    record Image(String repository, JsonNode manifest, JsonNode config, long size, String reference) {
        static final Map<String, Image> CACHE = new HashMap<>();
        static final Map<String, Map<String, Character>> FILES = new HashMap<>();

        static Image read(String reference) throws Exception {
            Image cached = CACHE.get(reference);
            if (cached != null) {
                return cached;
            }
            Matcher m = REF.matcher(reference);
            assertTrue(m.matches(), reference);
            String repository = m.group(2);
            HttpResponse<byte[]> manifest = get("/v2/" + repository + "/manifests/" + m.group(4));
            assertEquals(200, manifest.statusCode(), "manifest of " + reference);
            assertEquals(m.group(4), sha256(manifest.body()), "manifest digest of " + reference);
            JsonNode tree = Yaml.JSON.readTree(manifest.body());
            HttpResponse<byte[]> config = get("/v2/" + repository + "/blobs/" + tree.path("config").path("digest").asText());
            assertEquals(200, config.statusCode(), "config of " + reference);
            assertEquals(tree.path("config").path("digest").asText(), sha256(config.body()), "config digest of " + reference);
            long size = config.body().length;
            for (JsonNode layer : tree.path("layers")) {
                size += layer.path("size").asLong();
            }
            assertTrue(tree.path("layers").size() > 0, reference + " has no layers");
            assertEquals(tree.path("layers").size(), Yaml.JSON.readTree(config.body()).path("rootfs").path("diff_ids").size(),
                    reference + ": one diff_id per layer");
            Image image = new Image(repository, tree, Yaml.JSON.readTree(config.body()), size, reference);
            CACHE.put(reference, image);
            return image;
        }

        /** Path -> tar type flag of every entry of every layer (downloaded and digest-checked). */
        Map<String, Character> files() throws Exception {
            Map<String, Character> cached = FILES.get(reference);
            if (cached != null) {
                return cached;
            }
            Map<String, Character> files = new LinkedHashMap<>();
            for (JsonNode layer : manifest.path("layers")) {
                String digest = layer.path("digest").asText();
                HttpResponse<InputStream> blob = HTTP.send(HttpRequest.newBuilder(URI.create("http://" + registry + "/v2/" + repository + "/blobs/" + digest)).build(),
                        HttpResponse.BodyHandlers.ofInputStream());
                assertEquals(200, blob.statusCode(), "layer " + digest + " of " + reference);
                MessageDigest sha = MessageDigest.getInstance("SHA-256");
                try (InputStream in = new java.security.DigestInputStream(blob.body(), sha)) {
                    Tar.list(new GZIPInputStream(in), files);
                    in.transferTo(OutputStreamNull.INSTANCE);
                }
                assertEquals(digest, "sha256:" + HexFormat.of().formatHex(sha.digest()), "layer bytes of " + reference);
            }
            FILES.put(reference, files);
            return files;
        }
    }

    static final class OutputStreamNull extends java.io.OutputStream {
        static final OutputStreamNull INSTANCE = new OutputStreamNull();

        @Override
        public void write(int b) {
        }

        @Override
        public void write(byte[] b, int off, int len) {
        }
    }

    /** Just enough of ustar/pax/GNU tar to list a layer's paths. */
    static final class Tar {
        static void list(InputStream in, Map<String, Character> files) throws IOException {
            String longName = null;
            byte[] header = new byte[512];
            while (in.readNBytes(header, 0, 512) == 512) {
                if (header[0] == 0) {
                    break;
                }
                String name = field(header, 0, 100);
                String prefix = field(header, 345, 155);
                long size = Long.parseLong(field(header, 124, 12).trim().isEmpty() ? "0" : field(header, 124, 12).trim(), 8);
                char type = header[156] == 0 ? '0' : (char) header[156];
                byte[] data = type == 'x' || type == 'L' ? in.readNBytes((int) size) : null;
                if (data == null) {
                    in.skipNBytes(size);
                }
                in.skipNBytes((512 - size % 512) % 512);
                if (type == 'x') {
                    longName = paxPath(new String(data, StandardCharsets.UTF_8));
                    continue;
                }
                if (type == 'L') {
                    longName = new String(data, StandardCharsets.UTF_8).replace("\0", "");
                    continue;
                }
                if (type == 'g') {
                    continue;
                }
                String path = longName != null ? longName : prefix.isEmpty() ? name : prefix + "/" + name;
                longName = null;
                path = "/" + path.replaceFirst("^\\./", "").replaceFirst("^/", "").replaceFirst("/$", "");
                files.put(path, type == '7' ? '0' : type);
            }
        }

        static String field(byte[] header, int offset, int length) {
            int end = offset;
            while (end < offset + length && header[end] != 0) {
                end++;
            }
            return new String(header, offset, end - offset, StandardCharsets.UTF_8);
        }

        static String paxPath(String records) {
            for (String record : records.split("\n")) {
                int space = record.indexOf(' ');
                if (space > 0 && record.startsWith("path=", space + 1)) {
                    return record.substring(space + 6);
                }
            }
            return null;
        }
    }
}
