package org.examsuite.common.auth;

import io.quarkus.oidc.runtime.OidcIdentityProvider;
import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.IdentityProvider;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.request.TokenAuthenticationRequest;
import io.quarkus.vertx.http.runtime.security.HttpSecurityUtils;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * A staff token signed by a key the provider has just rotated in waits for the JWKS instead of being refused. OIDC
 * fetches the provider's JWKS when a token names a key it has not seen (at most once per forced-refresh interval) but
 * refuses at once every other new-key token that arrives while that fetch is under way (measured at a Keycloak
 * rotation under load: 21 of ~160). So this provider, asked just before OIDC's, hands each token to OIDC and, when a
 * staff token naming a key never verified here fails, asks OIDC again every 25-100 ms — the fetch lands, or an attempt
 * after the interval starts one — for up to the interval and 400 ms, or until the request's deadline answered it.
 * A token of a key that verified before fails at once (its failure is not the rotation's) and at most
 * {@value #MAX_WAITING} tokens wait at a time, so forged key ids cost the provider no more fetches than the interval
 * allows and the service only timers. OIDC's provider is an internal class of quarkus-oidc: {@code
 * StaffKeyRotationTest} shows a change in it.
 */
@ApplicationScoped
public class StaffKeyRotation implements IdentityProvider<TokenAuthenticationRequest> {
    private static final Logger LOG = Logger.getLogger(StaffKeyRotation.class);
    static final int MAX_WAITING = 256;
    private static final int MAX_KNOWN_KEYS = 64;
    private static final int MAX_HEADER_CHARS = 2048;
    private static final long FIRST_WAIT_MS = 25;
    private static final long LONGEST_WAIT_MS = 100;
    // a JWKS fetch's time: the wait (refresh interval + this) stays under the 1 s read deadline (RequestDeadline)
    private static final long FETCH_ALLOWANCE_MS = 400;

    private final OidcIdentityProvider oidc;
    private final Vertx vertx;
    private final long patienceMs;
    private final Set<String> verifiedKeys = ConcurrentHashMap.newKeySet();
    private final AtomicInteger waiting = new AtomicInteger();

    @Inject
    StaffKeyRotation(OidcIdentityProvider oidc, Vertx vertx,
            @ConfigProperty(name = "quarkus.oidc.staff.token.forced-jwk-refresh-interval", defaultValue = "500ms") Duration refreshInterval) {
        this.oidc = oidc;
        this.vertx = vertx;
        this.patienceMs = refreshInterval.toMillis() + FETCH_ALLOWANCE_MS;
    }

    @Override
    public Class<TokenAuthenticationRequest> getRequestType() {
        return TokenAuthenticationRequest.class;
    }

    @Override
    public int priority() {
        // after CachedTokenIdentityProvider (a remembered token needs no verifier), before OIDC's own (SYSTEM_FIRST + 1)
        return SYSTEM_FIRST + 500;
    }

    @Override
    public Uni<SecurityIdentity> authenticate(TokenAuthenticationRequest request, AuthenticationRequestContext context) {
        return verify(request, context).onFailure().recoverWithUni(failure -> {
            String key = unseenStaffKey(request);
            if (key == null) {
                return Uni.createFrom().failure(failure);
            }
            if (waiting.incrementAndGet() > MAX_WAITING) {
                waiting.decrementAndGet();
                return Uni.createFrom().failure(failure);
            }
            LOG.debugf("a staff token names key %s, not verified here yet: waiting for the provider's JWKS", key);
            return again(request, context, 0, FIRST_WAIT_MS, failure).onTermination().invoke(waiting::decrementAndGet);
        });
    }

    private Uni<SecurityIdentity> again(TokenAuthenticationRequest request, AuthenticationRequestContext context,
            long waitedMs, long nextWaitMs, Throwable lastFailure) {
        if (waitedMs >= patienceMs || answered(request)) { // past the request's deadline (RequestDeadline), nobody waits
            return Uni.createFrom().failure(lastFailure);
        }
        long wait = Math.min(nextWaitMs, patienceMs - waitedMs);
        return after(wait).chain(() -> verify(request, context)).onFailure().recoverWithUni(
                failure -> again(request, context, waitedMs + wait, Math.min(nextWaitMs * 2, LONGEST_WAIT_MS), failure));
    }

    private Uni<SecurityIdentity> verify(TokenAuthenticationRequest request, AuthenticationRequestContext context) {
        return oidc.authenticate(request, context).onItem().invoke(identity -> {
            String key = isStaff(request) ? keyId(request.getToken().getToken()) : null;
            if (key != null && !verifiedKeys.contains(key)) {
                if (verifiedKeys.size() >= MAX_KNOWN_KEYS) {
                    verifiedKeys.clear();
                }
                verifiedKeys.add(key);
            }
        });
    }

    /** The key id of a staff token (by the tenant OIDC resolved) whose key never verified a token here; else null. */
    private String unseenStaffKey(TokenAuthenticationRequest request) {
        String key = isStaff(request) ? keyId(request.getToken().getToken()) : null;
        return key != null && !verifiedKeys.contains(key) ? key : null;
    }

    private static boolean answered(TokenAuthenticationRequest request) {
        RoutingContext routing = HttpSecurityUtils.getRoutingContextAttribute(request);
        return routing != null && routing.response().ended();
    }

    private static boolean isStaff(TokenAuthenticationRequest request) {
        RoutingContext routing = HttpSecurityUtils.getRoutingContextAttribute(request);
        return routing != null && TenantRoles.STAFF_TENANT.equals(routing.get(TenantRoles.TENANT_ATTRIBUTE));
    }

    /** A timer on the caller's Vert.x context (Vert.x binds it there), so that OIDC is asked again where it was asked first. */
    private Uni<Void> after(long ms) {
        return Uni.createFrom().emitter(emitter -> vertx.setTimer(ms, id -> emitter.complete(null)));
    }

    /** The {@code kid} of a compact JWS's header, or null when it has none or is no JWS. */
    static String keyId(String token) {
        int dot = token == null ? -1 : token.indexOf('.');
        if (dot <= 0 || dot > MAX_HEADER_CHARS) {
            return null;
        }
        try {
            JsonObject header = new JsonObject(new String(Base64.getUrlDecoder().decode(token.substring(0, dot)), StandardCharsets.UTF_8));
            Object kid = header.getValue("kid");
            return kid instanceof String s && !s.isEmpty() ? s : null;
        } catch (RuntimeException notAHeader) {
            return null;
        }
    }
}
