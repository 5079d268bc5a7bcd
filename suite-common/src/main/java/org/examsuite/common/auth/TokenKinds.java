package org.examsuite.common.auth;

/** Issuers and audiences of the three token kinds (docs/api.md §4). */
public final class TokenKinds {
    public static final String CANDIDATE_ISSUER = "exam-session";
    public static final String CANDIDATE_AUDIENCE = "exam-candidate";
    /** A service token's issuer is this and the service's name: {@code exam-suite/answer-service}. */
    public static final String SERVICE_ISSUER_PREFIX = "exam-suite/";
    public static final String SERVICE_AUDIENCE = "exam-internal";
    public static final String OPERATOR_AUDIENCE = "exam-operator";
    /** The issuer of locally minted operator tokens; production sets its IdP's. */
    public static final String DEV_OPERATOR_ISSUER = "exam-operator-dev";

    private TokenKinds() {
    }

    public static String serviceIssuer(String service) {
        return SERVICE_ISSUER_PREFIX + service;
    }

    /** The service a service token's issuer names, or null for any other issuer. */
    public static String serviceOf(String issuer) {
        return issuer.startsWith(SERVICE_ISSUER_PREFIX) && issuer.length() > SERVICE_ISSUER_PREFIX.length()
                ? issuer.substring(SERVICE_ISSUER_PREFIX.length()) : null;
    }
}
