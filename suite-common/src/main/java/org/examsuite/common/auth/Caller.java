package org.examsuite.common.auth;

import io.quarkus.security.identity.SecurityIdentity;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import java.util.Set;
import org.eclipse.microprofile.jwt.JsonWebToken;
import org.examsuite.common.problem.ApiException;
import org.examsuite.contracts.problem.ProblemCode;

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

    /** The token's subject. */
    public String subject() {
        return identity.getPrincipal() instanceof JsonWebToken jwt ? jwt.getSubject() : null;
    }

    /**
     * Who acts, as the audit log and the records of who did what name them: a staff member as "Display Name
     * &lt;subject&gt;" (the provider's subject is an opaque id; the name is what people read), anyone else by subject.
     */
    public String actor() {
        String subject = subject();
        if (!isStaff()) {
            return subject;
        }
        String name = claimString("name");
        if (name == null || name.isBlank()) {
            name = claimString("preferred_username");
        }
        return name == null || name.isBlank() ? subject : name.strip() + " <" + subject + ">";
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

    /** The staff member's organisation ({@code org} claim), or null. */
    public String organisation() {
        return StaffScope.organisationOf(identity);
    }

    /** The exams a proctor or grader is assigned to ({@code exams} claim). */
    public Set<String> assignedExams() {
        return StaffScope.assignedTo(identity);
    }

    /** Has the caller one of these roles? */
    public boolean hasAnyRole(String... roles) {
        for (String role : roles) {
            if (identity.hasRole(role)) {
                return true;
            }
        }
        return false;
    }

    /** Is the caller a staff member (signed in through the organisation's provider), not an operator or a service? */
    public boolean isStaff() {
        return !isOperator() && !isService() && identity.getRoles().stream().anyMatch(Roles.STAFF::contains);
    }

    /**
     * May this caller act on exam EXAM_ID (of organisation EXAM_ORG, null when this service does not know it) through
     * one of ALLOWED roles? The rule is {@link StaffScope}'s.
     */
    public boolean reachesExam(String examId, String examOrg, String... allowed) {
        return StaffScope.allows(identity, identity.getRoles(), examId, examOrg, Set.of(allowed));
    }

    /**
     * For a service that knows an exam's id but not its organisation: staff reach it only through an assignment
     * (proctor, grader); out of scope is CODE's 404, as if it did not exist. Anyone else passes (the JAX-RS role check
     * and {@link #requireSession} decide for them).
     */
    public void requireAssigned(String examId, ProblemCode notFound, String... allowed) {
        if (isStaff() && !reachesExam(examId, null, allowed)) {
            throw ApiException.notFound(notFound, "Not found.");
        }
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
