package org.examsuite.common.auth;

import java.util.Set;

/**
 * The kinds of caller (docs/api.md §4). A role is granted by the OIDC tenant whose key verified the token —
 * never by a claim alone — see {@link TenantRoles}: the candidate and service tenants grant their one role; the
 * staff tenant (the organisation's identity provider) grants the staff roles its token names.
 */
public final class Roles {
    public static final String CANDIDATE = "candidate";
    public static final String OPERATOR = "operator";
    public static final String SERVICE = "service";

    /** An organisation's settings and staff. */
    public static final String ADMIN = "admin";
    /** Writes exams and their answer keys. */
    public static final String AUTHOR = "author";
    /** Runs the sessions of the exams assigned to them. */
    public static final String PROCTOR = "proctor";
    /** Marks essays and sees results of the exams assigned to them. */
    public static final String GRADER = "grader";

    /** The roles a staff member's token may carry; any other name in its role claim is ignored. */
    public static final Set<String> STAFF = Set.of(ADMIN, AUTHOR, PROCTOR, GRADER);

    private Roles() {
    }
}
