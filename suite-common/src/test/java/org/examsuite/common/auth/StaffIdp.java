package org.examsuite.common.auth;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.quarkus.test.junit.QuarkusTestProfile;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.jose4j.jwk.JsonWebKeySet;
import org.jose4j.jwk.RsaJsonWebKey;
import org.jose4j.jwk.RsaJwkGenerator;
import org.jose4j.jws.AlgorithmIdentifiers;
import org.jose4j.jws.JsonWebSignature;
import org.jose4j.jwt.JwtClaims;

/**
 * An OpenID provider's discovery document and JWKS on loopback, as much of one as a service tenant reads: keys are
 * added (a rotation) and the JWKS answered after a delay (a provider under load), and its fetches are counted. A test
 * profile: the staff tenant of the application under test is this provider's, with one JWKS fetch per 500 ms at most.
 */
public class StaffIdp implements QuarkusTestProfile {
    static final String AUDIENCE = "exam-operator";
    static final List<RsaJsonWebKey> KEYS = new CopyOnWriteArrayList<>();
    static final AtomicInteger JWKS_FETCHES = new AtomicInteger();
    static volatile long jwksDelayMs;
    private static HttpServer server;
    private static String issuer;

    static synchronized String issuer() {
        if (server == null) {
            try {
                server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 64);
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
            issuer = "http://127.0.0.1:" + server.getAddress().getPort() + "/realms/test";
            server.setExecutor(Executors.newCachedThreadPool());
            server.createContext("/realms/test/.well-known/openid-configuration", exchange -> answer(exchange, """
                    {"issuer":"%1$s","jwks_uri":"%1$s/certs","token_endpoint":"%1$s/token",
                     "authorization_endpoint":"%1$s/auth","id_token_signing_alg_values_supported":["RS256"]}"""
                    .formatted(issuer)));
            server.createContext("/realms/test/certs", exchange -> {
                JWKS_FETCHES.incrementAndGet();
                sleep(jwksDelayMs);
                answer(exchange, new JsonWebKeySet(List.copyOf(KEYS)).toJson());
            });
            server.start();
            KEYS.add(newKey());
        }
        return issuer;
    }

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of(
                "quarkus.oidc.staff.tenant-enabled", "true",
                "quarkus.oidc.staff.auth-server-url", issuer(),
                "quarkus.oidc.staff.token.forced-jwk-refresh-interval", "500ms",
                "exam.http.read-deadline", "5s");
    }

    static RsaJsonWebKey newKey() {
        try {
            RsaJsonWebKey key = RsaJwkGenerator.generateJwk(2048);
            key.setKeyId(key.calculateBase64urlEncodedThumbprint("SHA-256"));
            key.setAlgorithm(AlgorithmIdentifiers.RSA_USING_SHA256);
            key.setUse("sig");
            return key;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** A grader's token signed by KEY (its thumbprint the kid), as the provider would issue it. */
    static String graderToken(RsaJsonWebKey key) {
        try {
            JwtClaims claims = new JwtClaims();
            claims.setIssuer(issuer());
            claims.setAudience(AUDIENCE);
            claims.setSubject("greg");
            claims.setIssuedAtToNow();
            claims.setExpirationTimeMinutesInTheFuture(5);
            claims.setStringListClaim("groups", List.of(Roles.GRADER));
            JsonWebSignature jws = new JsonWebSignature();
            jws.setPayload(claims.toJson());
            jws.setKey(key.getPrivateKey());
            jws.setKeyIdHeaderValue(key.getKeyId());
            jws.setAlgorithmHeaderValue(AlgorithmIdentifiers.RSA_USING_SHA256);
            return jws.getCompactSerialization();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static void answer(HttpExchange exchange, String json) throws IOException {
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
