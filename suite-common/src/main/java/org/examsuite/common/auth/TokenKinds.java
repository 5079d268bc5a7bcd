package org.examsuite.common.auth;

/** Issuers and audiences of the three token kinds (docs/api.md §4). */
public final class TokenKinds {
    public static final String CANDIDATE_ISSUER = "exam-session";
    public static final String CANDIDATE_AUDIENCE = "exam-candidate";
    public static final String SERVICE_ISSUER = "exam-suite";
    public static final String SERVICE_AUDIENCE = "exam-internal";
    public static final String OPERATOR_AUDIENCE = "exam-operator";
    /** The issuer of locally minted operator tokens; production sets its IdP's. */
    public static final String DEV_OPERATOR_ISSUER = "exam-operator-dev";

    private TokenKinds() {
    }
}
