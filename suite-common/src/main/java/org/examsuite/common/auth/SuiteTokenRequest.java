package org.examsuite.common.auth;

import io.quarkus.security.identity.request.BaseAuthenticationRequest;

/** A bearer token of the suite's own issuers, for {@link SuiteTokenIdentityProvider} (never for OIDC's). */
public final class SuiteTokenRequest extends BaseAuthenticationRequest {
    private final String token;

    public SuiteTokenRequest(String token) {
        this.token = token;
    }

    public String token() {
        return token;
    }
}
