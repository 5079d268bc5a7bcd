package org.examsuite.tools.suite;

import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import org.examsuite.tools.host.Fail;
import org.examsuite.tools.host.PidFiles;
import org.examsuite.tools.host.Probes;
import org.examsuite.tools.host.Procs;
import org.examsuite.tools.host.Say;
import org.examsuite.tools.host.Workspace;

/**
 * {@code ./exam up --idp}: staff sign in through a real OpenID Connect provider — Keycloak from Maven Central's
 * {@code org.keycloak:keycloak-quarkus-dist}, on loopback port 8180, with the realm {@code exam-suite} imported from
 * {@code idp/exam-suite-realm.json} (an example organisation, a user per staff role, the console as a public client
 * with PKCE). The services then verify staff tokens through the realm's discovery document and JWKS (their
 * {@code staff} OIDC tenant). The users' password is generated once into .exam/idp/staff-password (never committed);
 * {@link #token} gets a realm user's token as scripts and checks act as each role. {@code ./exam down} stops it; its
 * data (an H2 database) stays in .exam/idp for the next up.
 */
public final class Keycloak {
    static final String NAME = "idp";
    static final String VERSION = "26.7.3";
    static final String HOST = "127.0.0.1";
    static final int PORT = 8180;
    public static final String REALM = "exam-suite";
    public static final String ISSUER = "http://" + HOST + ":" + PORT + "/realms/" + REALM;
    static final String CONSOLE_CLIENT = "exam-console";
    /** The console's port the realm is imported with (its redirect URIs and web origin): the exam page's default. */
    public static final int CONSOLE_PORT = 8080;
    static final String CLI_CLIENT = "exam-cli";
    private static final String ADMIN_USER = "admin";

    private final Workspace ws;
    private final Procs procs;
    private final PidFiles pids;
    private final Maven maven;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(3)).build();

    public Keycloak(Workspace ws, Procs procs, PidFiles pids, Maven maven) {
        this.ws = ws;
        this.procs = procs;
        this.pids = pids;
        this.maven = maven;
    }

    Path dir() {
        return ws.stateDir().resolve("idp");
    }

    private Path home() {
        return dir().resolve("keycloak-" + VERSION);
    }

    /** The marker in the server's command line: its own home, so another Keycloak on the machine is never taken for it. */
    private String marker() {
        return "-Dkc.home.dir=" + home().resolve("bin") + "/..";
    }

    public OptionalLong running() {
        return pids.running(NAME, marker());
    }

    /** Starts it unless it runs, waits until the realm answers, and points the services and the console at it. */
    public void ensure() {
        if (running().isPresent()) {
            Say.say("the identity provider (Keycloak) already runs (pid " + running().getAsLong() + ")");
        } else {
            start();
        }
        ws.put("EXAM_STAFF_SIGN_IN", "true");
        ws.put("EXAM_STAFF_ISSUER", ISSUER);
        ws.put("EXAM_CONSOLE_ISSUER", ISSUER);
        ws.put("EXAM_CONSOLE_CLIENT_ID", CONSOLE_CLIENT);
    }

    private void start() {
        if (Probes.tcp(HOST, PORT)) {
            throw new Fail("port " + PORT + " is taken by a process that ./exam did not start; Keycloak cannot listen there");
        }
        Path java = java21();
        unpack();
        Path log = ws.logDir().resolve("idp.log");
        Launcher.rotate(log);
        Path imports = Workspace.mkdirs(home().resolve("data/import"));
        try (InputStream realm = Keycloak.class.getResourceAsStream("/idp/exam-suite-realm.json")) {
            Files.copy(realm, imports.resolve("exam-suite-realm.json"), StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException | NullPointerException e) {
            throw new Fail("cannot place the realm file in " + imports + ": " + e.getMessage());
        }
        Map<String, String> env = Map.of("JAVA_HOME", java.toString(),
                "KC_BOOTSTRAP_ADMIN_USERNAME", ADMIN_USER, "KC_BOOTSTRAP_ADMIN_PASSWORD", secret("admin-password"),
                "EXAM_IDP_STAFF_PASSWORD", staffPassword(),
                "EXAM_CONSOLE_ORIGIN", "http://127.0.0.1:" + ws.envInt("EXAM_CLIENT_PORT", CONSOLE_PORT));
        long script = procs.detach(List.of(home().resolve("bin/kc.sh").toString(), "start-dev", "--http-host", HOST,
                "--http-port", Integer.toString(PORT), "--import-realm", "--log-console-color=false"), env, log);
        Say.say("starting the identity provider (Keycloak " + VERSION + ", realm " + REALM + ", on " + HOST + ":" + PORT
                + "; log " + log + ")");
        long deadline = System.nanoTime() + 300_000_000_000L; // the first start builds Keycloak (about a minute here)
        while (Probes.httpStatus(HOST, PORT, "/realms/" + REALM + "/.well-known/openid-configuration") != 200) {
            if (!PidFiles.alive(script) || System.nanoTime() > deadline) {
                Say.tail(log);
                ProcessHandle.of(script).ifPresent(Procs::killTree);
                throw new Fail("Keycloak did not come up (log: " + log + ")");
            }
            Launcher.sleep(1000);
        }
        // kc.sh waits on its JVM: the JVM is what a SIGTERM must reach
        long server = ProcessHandle.of(script).stream().flatMap(ProcessHandle::descendants)
                .filter(p -> PidFiles.commandLine(p.pid()).contains(marker())).mapToLong(ProcessHandle::pid).findFirst()
                .orElse(script);
        pids.record(NAME, server);
        Say.say("the identity provider is up: " + ISSUER + " (pid " + server + ")");
    }

    /** SIGTERM: Keycloak stops cleanly and keeps its realm for the next start. */
    public void stop() {
        pids.stop(NAME, marker(), 30);
    }

    /** The password of the realm's example users (generated once, readable by this machine's user only). */
    public String staffPassword() {
        return secret("staff-password");
    }

    private String secret(String name) {
        Path file = Workspace.mkdirs(dir()).resolve(name);
        try {
            if (!Files.isRegularFile(file)) {
                byte[] random = new byte[18];
                new SecureRandom().nextBytes(random);
                Files.writeString(file, Base64.getUrlEncoder().withoutPadding().encodeToString(random));
                Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
            }
            return Files.readString(file).strip();
        } catch (IOException e) {
            throw new Fail("cannot keep " + file + ": " + e.getMessage());
        }
    }

    /** The distribution, from Maven Central through the Maven cache, unpacked into .exam/idp once. */
    private void unpack() {
        if (Files.isRegularFile(home().resolve("bin/kc.sh"))) {
            return;
        }
        Path download = Workspace.mkdirs(dir().resolve("download"));
        Say.say("fetching Keycloak " + VERSION + " (org.keycloak:keycloak-quarkus-dist, 177 MB, from the Maven cache or Central)");
        maven.buildOrFail(List.of("-q", "dependency:copy", "-Dartifact=org.keycloak:keycloak-quarkus-dist:" + VERSION + ":zip",
                "-DoutputDirectory=" + download));
        Path zip = download.resolve("keycloak-quarkus-dist-" + VERSION + ".zip");
        try (ZipInputStream in = new ZipInputStream(Files.newInputStream(zip))) {
            for (ZipEntry entry; (entry = in.getNextEntry()) != null;) {
                Path target = dir().resolve(entry.getName()).normalize();
                if (!target.startsWith(dir())) {
                    throw new Fail("the Keycloak archive names a path outside its folder: " + entry.getName());
                }
                if (entry.isDirectory()) {
                    Files.createDirectories(target);
                } else {
                    Files.createDirectories(target.getParent());
                    Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
                    if (entry.getName().endsWith(".sh")) {
                        target.toFile().setExecutable(true);
                    }
                }
            }
            Files.delete(zip);
        } catch (IOException e) {
            throw new Fail("cannot unpack " + zip + ": " + e.getMessage());
        }
    }

    /** Keycloak 26 runs on Java 21 or newer: this JVM when it is one, else one in /usr/lib/jvm (or EXAM_IDP_JAVA_HOME). */
    private Path java21() {
        String given = ws.env("EXAM_IDP_JAVA_HOME");
        if (!given.isEmpty()) {
            return Path.of(given);
        }
        return Jdks.atLeast(21)
                .orElseThrow(() -> new Fail("Keycloak needs Java 21 or newer: none in /usr/lib/jvm (set EXAM_IDP_JAVA_HOME)"));
    }

    // --- acting as a staff member (./exam token ROLE) ---

    /**
     * An access token of a realm user with ROLE (in ORG when given), assigned to EXAM_ID first when given — through the
     * password grant of the realm's command-line client, as scripts and checks act as each role.
     */
    public String token(String role, String org, String examId) {
        if (running().isEmpty() && Probes.httpStatus(HOST, PORT, "/realms/" + REALM) != 200) {
            throw new Fail("staff tokens come from the identity provider: ./exam up --idp first");
        }
        String admin = adminToken();
        JsonObject user = userWith(admin, role, org);
        if (examId != null) {
            assign(admin, user, examId);
        }
        return passwordGrant(user.getString("username"), staffPassword());
    }

    /** The realm's first user with ROLE (and ORG when given). */
    JsonObject userWith(String admin, String role, String org) {
        JsonArray users = getJson(admin, "/admin/realms/" + REALM + "/roles/" + encode(role) + "/users?briefRepresentation=false&max=1000")
                .asJsonArray();
        for (JsonValue value : users) {
            JsonObject user = value.asJsonObject();
            if (org == null || org.equals(attribute(user, "org").stream().findFirst().orElse(null))) {
                return user;
            }
        }
        throw new Fail("the realm has no user with role " + role + (org == null ? "" : " in organisation " + org));
    }

    /** Adds EXAM_ID to the user's assigned exams (its {@code exams} attribute, the tokens' claim). */
    void assign(String admin, JsonObject user, String examId) {
        Set<String> exams = new LinkedHashSet<>(attribute(user, "exams"));
        if (!exams.add(examId)) {
            return;
        }
        JsonObjectBuilder attributes = Json.createObjectBuilder(user.containsKey("attributes") ? user.getJsonObject("attributes") : JsonValue.EMPTY_JSON_OBJECT);
        attributes.add("exams", Json.createArrayBuilder(new ArrayList<>(exams)));
        JsonObject update = Json.createObjectBuilder().add("username", user.getString("username"))
                .add("email", user.getString("email", "")).add("firstName", user.getString("firstName", ""))
                .add("lastName", user.getString("lastName", "")).add("attributes", attributes).build();
        send(HttpRequest.newBuilder(uri("/admin/realms/" + REALM + "/users/" + user.getString("id")))
                .header("Authorization", "Bearer " + admin).header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(update.toString())), 204);
    }

    private static List<String> attribute(JsonObject user, String name) {
        if (!user.containsKey("attributes") || !user.getJsonObject("attributes").containsKey(name)) {
            return List.of();
        }
        return user.getJsonObject("attributes").getJsonArray(name).getValuesAs(JsonString.class).stream().map(JsonString::getString).toList();
    }

    /** The master realm's administrator (the bootstrap admin of .exam/idp/admin-password). */
    private String adminToken() {
        return grant("/realms/master/protocol/openid-connect/token", "admin-cli", ADMIN_USER, secret("admin-password"));
    }

    private String passwordGrant(String username, String password) {
        return grant("/realms/" + REALM + "/protocol/openid-connect/token", CLI_CLIENT, username, password);
    }

    private String grant(String path, String client, String username, String password) {
        String form = "grant_type=password&client_id=" + encode(client) + "&username=" + encode(username) + "&password=" + encode(password);
        String body = send(HttpRequest.newBuilder(uri(path)).header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form)), 200);
        return read(body).asJsonObject().getString("access_token");
    }

    JsonValue getJson(String bearer, String path) {
        return read(send(HttpRequest.newBuilder(uri(path)).header("Authorization", "Bearer " + bearer).GET(), 200));
    }

    private String send(HttpRequest.Builder request, int status) {
        HttpResponse<String> response = exchange(request);
        if (response.statusCode() != status) {
            throw new Fail("the identity provider answered " + response.statusCode() + " to " + response.request().method() + " "
                    + response.request().uri().getPath() + ": " + response.body());
        }
        return response.body();
    }

    private HttpResponse<String> exchange(HttpRequest.Builder request) {
        try {
            return http.send(request.timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new Fail("the identity provider on " + HOST + ":" + PORT + " does not answer: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Fail("interrupted");
        }
    }

    private static URI uri(String path) {
        return URI.create("http://" + HOST + ":" + PORT + path);
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    private static JsonValue read(String json) {
        try (JsonReader reader = Json.createReader(new StringReader(json))) {
            return reader.readValue();
        }
    }
}
