package org.examsuite.common.auth;

import java.util.Set;

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

    private StaffScope() {
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
