package org.examsuite.common.tracing;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.HashMap;
import java.util.Map;

/**
 * W3C trace context through Redis stream messages (docs/api.md §5): the producer adds the
 * {@code traceparent}/{@code tracestate} fields to the message, the consumer continues the
 * trace from them, so one submission is one trace from HTTP request to archived result.
 */
@ApplicationScoped
public class StreamTracing {
    private static final TextMapGetter<Map<String, String>> GETTER = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(Map<String, String> carrier) {
            return carrier.keySet();
        }

        @Override
        public String get(Map<String, String> carrier, String key) {
            return carrier == null ? null : carrier.get(key);
        }
    };

    private final OpenTelemetry openTelemetry;

    @Inject
    StreamTracing(OpenTelemetry openTelemetry) {
        this.openTelemetry = openTelemetry;
    }

    /** The current trace context as message fields. */
    public Map<String, String> currentContext() {
        Map<String, String> fields = new HashMap<>();
        openTelemetry.getPropagators().getTextMapPropagator().inject(Context.current(), fields, Map::put);
        return fields;
    }

    /** The context a consumer continues from: parent of its spans for this message. */
    public Context extract(Map<String, String> fields) {
        return openTelemetry.getPropagators().getTextMapPropagator().extract(Context.root(), fields, GETTER);
    }
}
