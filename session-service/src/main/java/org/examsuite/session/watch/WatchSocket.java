package org.examsuite.session.watch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.oidc.AccessTokenCredential;
import io.quarkus.oidc.Tenant;
import io.quarkus.oidc.TenantIdentityProvider;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.ext.web.Router;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import org.eclipse.microprofile.jwt.JsonWebToken;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;
import java.util.Set;
import org.examsuite.common.auth.TenantRoles;
import org.examsuite.session.access.ExamAccess;
import org.examsuite.common.problem.ApiException;
import org.examsuite.contracts.problem.ProblemCode;
import org.examsuite.session.exam.ExamService;
import org.examsuite.session.socket.CloseCode;
import org.examsuite.session.socket.SocketConfig;
import org.examsuite.session.socket.SocketDoor;

/**
 * {@code /api/v1/exams/{examId}/live} (docs/api.md §3.9): an operator's console watching one exam.
 * The operator token comes as the second subprotocol ({@code ["exam-watch", token]}, as the
 * candidate's socket takes its own) or as the first message {@code {"type": "AUTH", "token"}}
 * (socket/SocketDoor), and is verified by the {@code operator} OIDC tenant. Who may watch an exam
 * is who may read its roster (RosterResource: the operator role, which today reaches every exam).
 * Then the socket gets {@code WELCOME}, and every change of the exam as {@link WatchHub} hears it;
 * it is closed 4401 when its token expires (the console signs in again).
 */
@ApplicationScoped
public class WatchSocket implements SocketDoor.Endpoint {
    static final String SUBPROTOCOL = "exam-watch";
    static final CloseCode UNAUTHORIZED = SocketDoor.UNAUTHORIZED;
    static final CloseCode NOT_FOUND = new CloseCode(4404, ProblemCode.EXAM_NOT_FOUND.name());

    /** A token that verified and may watch exams, but not this one: answered as for an exam that does not exist. */
    private static final SecurityIdentity NOT_IN_SCOPE = QuarkusSecurityIdentity.builder().setAnonymous(true).build();

    private final TenantIdentityProvider operatorTokens;
    private final TenantIdentityProvider staffTokens;
    private final ExamAccess access;
    private final WatchHub hub;
    private final ExamService exams;
    private final Clock clock;
    private final Vertx vertx;
    /** At most {@code exam.watch.max-sockets} open (consoles are few; a runaway client is not). */
    private final SocketDoor door;

    WatchSocket(@Tenant("operator") TenantIdentityProvider operatorTokens, @Tenant("staff") TenantIdentityProvider staffTokens,
            ExamAccess access, WatchHub hub, ExamService exams, ObjectMapper json, Clock clock, Vertx vertx, WatchConfig config,
            SocketConfig sockets) {
        this.operatorTokens = operatorTokens;
        this.staffTokens = staffTokens;
        this.access = access;
        this.hub = hub;
        this.exams = exams;
        this.clock = clock;
        this.vertx = vertx;
        this.door = new SocketDoor("/api/v1/exams/:examId/live", "examId", SUBPROTOCOL, config.maxSockets(), sockets, vertx,
                json, this);
    }

    void install(@Observes Router router) {
        door.install(router);
    }

    @Override
    public boolean admitted(ServerWebSocket socket, String examId) {
        return hub.holds(socket, examId);
    }

    @Override
    public Uni<Void> message(ServerWebSocket socket, String examId, String type, JsonNode message) {
        if ("PING".equals(type)) {
            return door.send(socket, door.write(Map.of("type", "PONG", "serverTime", clock.instant().toString())));
        }
        return door.send(socket, door.error("UNKNOWN_MESSAGE"));
    }

    @Override
    public void closed(ServerWebSocket socket, String examId) {
        hub.remove(socket, examId);
    }

    @Override
    public Uni<Void> authenticate(ServerWebSocket socket, String examId, String token) {
        AccessTokenCredential credential = new AccessTokenCredential(token);
        return operatorTokens.authenticate(credential)
                .onFailure().recoverWithNull()
                .chain(identity -> identity != null ? Uni.createFrom().item(identity)
                        : staffTokens.authenticate(credential).onFailure().recoverWithNull())
                .chain(identity -> identity == null || !mayWatchSome(identity) ? Uni.createFrom().item((SecurityIdentity) null)
                        : access.reaches(identity, examId, ExamAccess.PROCTORING).map(reaches -> reaches ? identity : NOT_IN_SCOPE))
                .chain(identity -> {
                    if (identity == NOT_IN_SCOPE) {
                        return door.reject(socket, NOT_FOUND);
                    }
                    if (!mayWatch(identity)) {
                        return door.reject(socket, UNAUTHORIZED);
                    }
                    return exams.require(examId).onItemOrFailure().transformToUni((exam, failure) -> {
                        if (failure instanceof ApiException) {
                            return door.reject(socket, NOT_FOUND);
                        }
                        if (failure != null) {
                            return Uni.createFrom().failure(failure);
                        }
                        if (socket.isClosed()) { // closed while its token was checked: nothing to hold
                            return Uni.createFrom().voidItem();
                        }
                        hub.add(socket, examId);
                        closeOnExpiry(socket, identity);
                        Map<String, Object> welcome = new LinkedHashMap<>();
                        welcome.put("type", "WELCOME");
                        welcome.put("examId", examId);
                        welcome.put("serverTime", clock.instant().toString());
                        return door.send(socket, door.write(welcome));
                    });
                });
    }

    /** Has the token a role that watches exams at all (ExamAccess.PROCTORING, the roster's)? */
    private static boolean mayWatchSome(SecurityIdentity identity) {
        return TenantRoles.rolesOf(identity).stream().anyMatch(Set.of(ExamAccess.PROCTORING)::contains);
    }

    /** The roster's rule (RosterResource, ExamAccess.PROCTORING): reached (checked above) through a token. */
    private static boolean mayWatch(SecurityIdentity identity) {
        return identity != null && identity.getPrincipal() instanceof JsonWebToken;
    }

    private void closeOnExpiry(ServerWebSocket socket, SecurityIdentity identity) {
        long exp = ((JsonWebToken) identity.getPrincipal()).getExpirationTime() * 1000;
        long delay = exp - clock.millis();
        if (exp > 0) {
            vertx.setTimer(Math.max(1, delay), timer -> {
                if (!socket.isClosed()) {
                    door.reject(socket, UNAUTHORIZED).subscribe().with(done -> { }, failure -> { });
                }
            });
        }
    }
}
