package org.examsuite.common.auth;

import io.quarkus.security.identity.SecurityIdentity;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.jwt.JsonWebToken;
import org.examsuite.common.problem.ApiException;

/** Who is calling, and the per-session access rule: a candidate reaches only its own session. */
@RequestScoped
public class Caller {
    private final SecurityIdentity identity;

    @Inject
    Caller(SecurityIdentity identity) {
        this.identity = identity;
    }

    public boolean isOperator() {
        return identity.hasRole(Roles.OPERATOR);
    }

    public boolean isCandidate() {
        return identity.hasRole(Roles.CANDIDATE);
    }

    public boolean isService() {
        return identity.hasRole(Roles.SERVICE);
    }

    /** The operator's identity (token subject), for the audit log. */
    public String subject() {
        return identity.getPrincipal() instanceof JsonWebToken jwt ? jwt.getSubject() : null;
    }

    public String sessionId() {
        return claimString("sessionId");
    }

    public String examId() {
        return claimString("examId");
    }

    public String candidateId() {
        return claimString("candidateId");
    }

    public long deviceEpoch() {
        Long epoch = claimLong(identity, "deviceEpoch");
        if (epoch == null) {
            throw ApiException.unauthorized("The token has no device epoch.");
        }
        return epoch;
    }

    /** The bearer token of this request as sent, or null. */
    public String token() {
        return identity.getPrincipal() instanceof JsonWebToken jwt ? jwt.getRawToken() : null;
    }

    /** The expiry ({@code exp}, epoch seconds) of this request's token, or 0 when it has none. */
    public long tokenExpiresAt() {
        return identity.getPrincipal() instanceof JsonWebToken jwt ? jwt.getExpirationTime() : 0;
    }

    /** Operators and services reach every session; a candidate only the one in its token. */
    public void requireSession(String sessionId) {
        if (isOperator() || isService()) {
            return;
        }
        if (isCandidate() && sessionId != null && sessionId.equals(sessionId())) {
            return;
        }
        throw ApiException.forbidden("This token does not give access to that session.");
    }

    /** For candidate-only paths (the answers of one's own session). */
    public void requireCandidateOf(String sessionId) {
        if (isCandidate() && sessionId != null && sessionId.equals(sessionId())) {
            return;
        }
        throw ApiException.forbidden("Only the session's own candidate may do that.");
    }

    private String claimString(String name) {
        return claimString(identity, name);
    }

    /**
     * A claim of the identity's token as a string, or null. The claims are read from the
     * principal itself — the verifier's, or the claims-only one of a token served from
     * {@link VerifiedTokens}. An injected {@code JsonWebToken} would parse the token again for
     * any principal but the verifier's own.
     */
    static String claimString(SecurityIdentity identity, String name) {
        return identity.getPrincipal() instanceof JsonWebToken jwt ? TokenClaims.string(jwt, name) : null;
    }

    /** A numeric claim of the identity's token as a whole number, or null (see {@link #claimString(SecurityIdentity, String)}). */
    static Long claimLong(SecurityIdentity identity, String name) {
        return identity.getPrincipal() instanceof JsonWebToken jwt ? TokenClaims.whole(jwt, name) : null;
    }
}
