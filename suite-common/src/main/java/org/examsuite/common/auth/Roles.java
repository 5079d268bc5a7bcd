package org.examsuite.common.auth;

import java.util.List;
import java.util.Set;

/**
 * The kinds of caller (docs/api.md §4). A role is granted by the OIDC tenant whose key verified the token —
 * never by a claim alone — see {@link TenantRoles}: the candidate tenant grants its one role, the service tenant
 * {@link #SERVICE} and the signing service's own ({@link #fromService}); the
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

    /** The services, by the name each signs its service tokens with (its {@code quarkus.application.name}). */
    public static final String SESSION_SERVICE = "session-service";
    public static final String ANSWER_SERVICE = "answer-service";
    public static final String SUBMISSION_SERVICE = "submission-service";
    public static final String GRADING_SAGA = "grading-saga";
    public static final List<String> SERVICES = List.of(SESSION_SERVICE, ANSWER_SERVICE, SUBMISSION_SERVICE, GRADING_SAGA);

    /**
     * The role of a token one service signed, beside {@link #SERVICE}: each {@code /internal} operation allows only
     * the services that need it ({@code @RolesAllowed(Roles.FROM_GRADING_SAGA)}).
     */
    public static final String FROM_SESSION_SERVICE = "service:" + SESSION_SERVICE;
    public static final String FROM_ANSWER_SERVICE = "service:" + ANSWER_SERVICE;
    public static final String FROM_SUBMISSION_SERVICE = "service:" + SUBMISSION_SERVICE;
    public static final String FROM_GRADING_SAGA = "service:" + GRADING_SAGA;

    public static String fromService(String service) {
        return SERVICE + ":" + service;
    }

    /** The roles a staff member's token may carry; any other name in its role claim is ignored. */
    public static final Set<String> STAFF = Set.of(ADMIN, AUTHOR, PROCTOR, GRADER);

    private Roles() {
    }
}
