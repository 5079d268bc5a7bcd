package org.examsuite.common.auth;

import io.quarkus.security.identity.request.BaseAuthenticationRequest;
import org.jose4j.jwt.consumer.JwtContext;

/** A bearer token of the suite's own issuers, for {@link SuiteTokenIdentityProvider} (never for OIDC's). */
public final class SuiteTokenRequest extends BaseAuthenticationRequest {
    private final String token;
    private final JwtContext read;

    /** READ: the token as {@link SuiteTokenVerifier#read} gave it, or null when it was recognised unread (cached). */
    public SuiteTokenRequest(String token, JwtContext read) {
        this.token = token;
        this.read = read;
    }

    public String token() {
        return token;
    }

    JwtContext read() {
        return read;
    }
}
