package org.examsuite.common.auth;

import io.quarkus.security.identity.SecurityIdentity;
import java.util.Set;
import org.eclipse.microprofile.jwt.JsonWebToken;

/**
 * Who may act on one exam (docs/api.md §4, "Who may do what"), decided from the caller's role, organisation and
 * exam assignments — the suite's one owner of that rule. An operator (the suite's own static-key tenant: local
 * tools, break-glass) reaches every exam. A staff member reaches an exam through one of the roles the operation
 * allows: {@code admin} and {@code author} within their organisation ({@code org} claim = the exam's), {@code proctor}
 * and {@code grader} only for the exams assigned to them ({@code exams} claim). Out of scope is "no such exam" to
 * the caller (404), as if it did not exist; a role the operation does not allow at all is 403 (JAX-RS's
 * {@code @RolesAllowed}, before this).
 */
public final class StaffScope {
    /** The roles whose reach is their organisation; the others reach only their assigned exams. */
    private static final Set<String> ORGANISATION_WIDE = Set.of(Roles.ADMIN, Roles.AUTHOR);
    /** The staff token's claims the rule reads: the organisation, and the exams assigned. */
    static final String ORG_CLAIM = "org";
    static final String EXAMS_CLAIM = "exams";

    private StaffScope() {
    }

    /** The organisation of a verified identity's token, or null. */
    public static String organisationOf(SecurityIdentity identity) {
        return identity.getPrincipal() instanceof JsonWebToken jwt ? TokenClaims.string(jwt, ORG_CLAIM) : null;
    }

    /** The exams a verified identity's token is assigned to. */
    public static Set<String> assignedTo(SecurityIdentity identity) {
        return identity.getPrincipal() instanceof JsonWebToken jwt ? TokenClaims.strings(jwt, EXAMS_CLAIM) : Set.of();
    }

    /** {@link #allows(Set, String, Set, String, String, Set)} for IDENTITY's token, with ROLES as the suite grants them. */
    public static boolean allows(SecurityIdentity identity, Set<String> roles, String examId, String examOrg, Set<String> allowed) {
        return allows(roles, organisationOf(identity), assignedTo(identity), examId, examOrg, allowed);
    }

    /**
     * May a caller with ROLES, of organisation ORG and assigned to ASSIGNED, act on exam EXAM_ID of organisation
     * EXAM_ORG (null when this service does not know it: then only an assignment counts) through one of ALLOWED?
     */
    public static boolean allows(Set<String> roles, String org, Set<String> assigned, String examId, String examOrg,
            Set<String> allowed) {
        if (roles.contains(Roles.OPERATOR) && allowed.contains(Roles.OPERATOR)) {
            return true;
        }
        for (String role : roles) {
            if (!allowed.contains(role) || !Roles.STAFF.contains(role)) {
                continue;
            }
            if (ORGANISATION_WIDE.contains(role)) {
                if (org != null && examOrg != null && org.equals(examOrg)) {
                    return true;
                }
            } else if (examId != null && assigned.contains(examId)) {
                return true;
            }
        }
        return false;
    }
}
