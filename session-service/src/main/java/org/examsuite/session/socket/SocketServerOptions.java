package org.examsuite.session.socket;

import io.quarkus.vertx.http.HttpServerOptionsCustomizer;
import io.vertx.core.http.HttpServerOptions;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The HTTP server's WebSocket options, for every upgrade SocketDoor takes. No compression:
 * the messages are a few hundred bytes, and per-message compression cost each socket a zlib
 * deflater and inflater (bench/live: 839 MiB RSS with 4,000 sockets open with it).
 */
@ApplicationScoped
public class SocketServerOptions implements HttpServerOptionsCustomizer {
    private final SocketConfig config;

    SocketServerOptions(SocketConfig config) {
        this.config = config;
    }

    @Override
    public void customizeHttpServer(HttpServerOptions options) {
        apply(options);
    }

    @Override
    public void customizeHttpsServer(HttpServerOptions options) {
        apply(options);
    }

    private void apply(HttpServerOptions options) {
        options.setWebSocketSubProtocols(config.subprotocols())
                .setPerMessageWebSocketCompressionSupported(false)
                .setPerFrameWebSocketCompressionSupported(false)
                .setMaxWebSocketMessageSize(config.maxMessageSize())
                .setMaxWebSocketFrameSize(config.maxMessageSize())
                .setRegisterWebSocketWriteHandlers(false);
    }
}
