package org.examsuite.common.auth;

/**
 * The three kinds of caller (docs/api.md §4). A role is granted by the OIDC tenant whose key
 * verified the token — never by a claim inside it — see {@link TenantRoles}.
 */
public final class Roles {
    public static final String CANDIDATE = "candidate";
    public static final String OPERATOR = "operator";
    public static final String SERVICE = "service";

    private Roles() {
    }
}
