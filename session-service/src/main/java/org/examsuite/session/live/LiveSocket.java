package org.examsuite.session.live;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.ext.web.Router;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Clock;
import java.time.Instant;
import org.examsuite.common.auth.SuiteTokenVerifier;
import org.examsuite.contracts.problem.ProblemCode;
import org.examsuite.session.device.OnlineTracker;
import org.examsuite.session.session.SessionRow;
import org.examsuite.session.session.SessionService;
import org.examsuite.session.socket.CloseCode;
import org.examsuite.session.socket.SocketConfig;
import org.examsuite.session.socket.SocketDoor;

/**
 * {@code /api/v1/sessions/{sessionId}/live} (docs/api.md §3.7). Browsers cannot set
 * {@code Authorization} on a WebSocket, so the candidate token comes either as a second
 * subprotocol ({@code new WebSocket(url, ["exam-live", token])}; the server answers with
 * {@code exam-live}) or as the first message {@code {"type": "AUTH", "token": "..."}}
 * (socket/SocketDoor). The token is checked by the same verifier as on REST, and must be for
 * this session. Then the server pushes the time ({@code TIME}, also on request) and every
 * proctor command ({@code EXTENDED}, {@code WARNING}, {@code FORCE_SUBMITTED}, {@code SUBMITTED},
 * {@code TAKEN_OVER}) with the same ids the heartbeat returns. Opening and the client's
 * {@code TIME} pings count as being online, as a heartbeat does: the SDK's heartbeat slows
 * down while its socket is open.
 */
@ApplicationScoped
public class LiveSocket implements SocketDoor.Endpoint {
    static final String SUBPROTOCOL = "exam-live";
    static final CloseCode UNAUTHORIZED = SocketDoor.UNAUTHORIZED;
    static final CloseCode FORBIDDEN = new CloseCode(4403, ProblemCode.FORBIDDEN.name());

    private final SuiteTokenVerifier candidateTokens;
    private final LiveHub hub;
    private final SessionService sessions;
    private final Clock clock;
    private final OnlineTracker online;
    /**
     * Sockets this replica keeps open at most ({@code exam.live.max-sockets}): past it the replica
     * refuses new ones (1013) rather than run out of memory (bench/live, docs/benchmarks.md).
     */
    private final SocketDoor door;

    LiveSocket(SuiteTokenVerifier candidateTokens, LiveHub hub, SessionService sessions,
            ObjectMapper json, Clock clock, Vertx vertx, LiveConfig config, SocketConfig sockets, OnlineTracker online) {
        this.candidateTokens = candidateTokens;
        this.hub = hub;
        this.sessions = sessions;
        this.clock = clock;
        this.online = online;
        this.door = new SocketDoor("/api/v1/sessions/:sessionId/live", "sessionId", SUBPROTOCOL, config.maxSockets(), sockets,
                vertx, json, this);
    }

    void install(@Observes Router router) {
        door.install(router);
    }

    @Override
    public boolean admitted(ServerWebSocket socket, String sessionId) {
        return hub.holds(socket, sessionId);
    }

    @Override
    public Uni<Void> message(ServerWebSocket socket, String sessionId, String type, JsonNode message) {
        if ("TIME".equals(type)) {
            return sessions.require(sessionId).chain(row -> seen(row).chain(() -> door.send(socket, time(row))));
        }
        return door.send(socket, door.error("UNKNOWN_MESSAGE"));
    }

    @Override
    public void closed(ServerWebSocket socket, String sessionId) {
        hub.remove(socket, sessionId);
    }

    @Override
    public Uni<Void> authenticate(ServerWebSocket socket, String sessionId, String token) {
        SuiteTokenVerifier.Verified verified;
        try {
            verified = candidateTokens.verify(token);
        } catch (SuiteTokenVerifier.Refused refused) {
            return door.reject(socket, UNAUTHORIZED);
        }
        if (verified.kind() != SuiteTokenVerifier.Kind.CANDIDATE) {
            return door.reject(socket, UNAUTHORIZED);
        }
        if (!sessionId.equals(verified.string("sessionId"))) {
            return door.reject(socket, FORBIDDEN);
        }
        Long claimed = verified.whole("deviceEpoch");
        long epoch = claimed == null ? -1 : claimed;
        return sessions.require(sessionId).chain(row -> {
            if (epoch < row.deviceEpoch()) {
                return door.reject(socket, LiveHub.TAKEN_OVER);
            }
            if (socket.isClosed()) { // closed while its token was checked: nothing to hold
                return Uni.createFrom().voidItem();
            }
            hub.add(socket, sessionId, row.examId(), epoch);
            return seen(row).chain(() -> door.send(socket, time(row)));
        });
    }

    /** The proctors' online count must not cost the candidate the time: a Redis failure is ignored. */
    private Uni<Void> seen(SessionRow row) {
        return online.seen(row.examId(), row.sessionId(), clock.millis()).onFailure().recoverWithNull();
    }

    private String time(SessionRow row) {
        Instant now = clock.instant();
        return door.write(LiveHub.timeMessage(now, row.deadline(), row.remainingMs(now), row.status(), row.deviceEpoch(),
                row.pausedAt(), row.paperId()));
    }
}
