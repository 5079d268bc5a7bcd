package org.examsuite.common.auth;

import jakarta.inject.Inject;
import jakarta.ws.rs.client.ClientRequestContext;
import jakarta.ws.rs.client.ClientRequestFilter;
import jakarta.ws.rs.core.HttpHeaders;

/** Register on REST clients of {@code /internal} APIs: {@code @RegisterProvider(ServiceTokenFilter.class)}. */
public class ServiceTokenFilter implements ClientRequestFilter {
    private final ServiceTokens tokens;

    @Inject
    ServiceTokenFilter(ServiceTokens tokens) {
        this.tokens = tokens;
    }

    @Override
    public void filter(ClientRequestContext request) {
        request.getHeaders().putSingle(HttpHeaders.AUTHORIZATION, tokens.bearer());
    }
}
