package org.examsuite.k8s;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.GZIPInputStream;

/**
 * A minimal OTLP/HTTP trace receiver (protocol http/protobuf) on loopback: the JDK's HttpServer
 * decoding {@code ExportTraceServiceRequest}s (opentelemetry-proto) into {@link ReceivedSpan}s.
 */
final class OtlpReceiver implements AutoCloseable {

    /** One span as received: the exporting service (resource service.name), ids in hex, kind, name, attributes. */
    record ReceivedSpan(String service, String traceId, String spanId, String parentSpanId, String kind, String name,
            Map<String, String> attributes, long startNanos) {

        boolean mentions(String text) {
            return name.contains(text) || attributes.values().stream().anyMatch(v -> v.contains(text));
        }

        @Override
        public String toString() {
            return service + " " + kind + " '" + name + "' span " + spanId + " parent " + (parentSpanId.isEmpty() ? "-" : parentSpanId);
        }
    }

    private final HttpServer server;
    private final List<ReceivedSpan> spans = new CopyOnWriteArrayList<>();
    private final AtomicInteger requests = new AtomicInteger();
    private final List<String> paths = new CopyOnWriteArrayList<>();

    OtlpReceiver(int port) throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 64);
        server.createContext("/", this::handle);
        server.start();
    }

    int port() {
        return server.getAddress().getPort();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            requests.incrementAndGet();
            if (!paths.contains(exchange.getRequestURI().getPath())) {
                paths.add(exchange.getRequestURI().getPath());
            }
            if (!"POST".equals(exchange.getRequestMethod())) {
                exchange.sendResponseHeaders(405, -1);
                return;
            }
            InputStream body = exchange.getRequestBody();
            if ("gzip".equalsIgnoreCase(exchange.getRequestHeaders().getFirst("Content-Encoding"))) {
                body = new GZIPInputStream(body);
            }
            ExportTraceServiceRequest request;
            try {
                request = ExportTraceServiceRequest.parseFrom(body.readAllBytes());
            } catch (IOException e) {
                exchange.sendResponseHeaders(400, -1);
                return;
            }
            HexFormat hex = HexFormat.of();
            for (ResourceSpans resource : request.getResourceSpansList()) {
                String service = resource.getResource().getAttributesList().stream()
                        .filter(a -> a.getKey().equals("service.name")).map(a -> a.getValue().getStringValue())
                        .findFirst().orElse("?");
                for (ScopeSpans scope : resource.getScopeSpansList()) {
                    for (var span : scope.getSpansList()) {
                        Map<String, String> attributes = new TreeMap<>();
                        for (KeyValue kv : span.getAttributesList()) {
                            attributes.put(kv.getKey(), switch (kv.getValue().getValueCase()) {
                                case STRING_VALUE -> kv.getValue().getStringValue();
                                case INT_VALUE -> Long.toString(kv.getValue().getIntValue());
                                case BOOL_VALUE -> Boolean.toString(kv.getValue().getBoolValue());
                                case DOUBLE_VALUE -> Double.toString(kv.getValue().getDoubleValue());
                                default -> kv.getValue().toString().strip();
                            });
                        }
                        spans.add(new ReceivedSpan(service, hex.formatHex(span.getTraceId().toByteArray()),
                                hex.formatHex(span.getSpanId().toByteArray()), hex.formatHex(span.getParentSpanId().toByteArray()),
                                span.getKind().name().replace("SPAN_KIND_", ""), span.getName(), attributes,
                                span.getStartTimeUnixNano()));
                    }
                }
            }
            byte[] reply = ExportTraceServiceResponse.getDefaultInstance().toByteArray();
            exchange.getResponseHeaders().set("Content-Type", "application/x-protobuf");
            exchange.sendResponseHeaders(200, reply.length == 0 ? -1 : reply.length);
            if (reply.length > 0) {
                exchange.getResponseBody().write(reply);
            }
        }
    }

    List<ReceivedSpan> spans() {
        return new ArrayList<>(spans);
    }

    List<ReceivedSpan> trace(String traceId) {
        return spans.stream().filter(s -> s.traceId().equals(traceId))
                .sorted((a, b) -> Long.compare(a.startNanos(), b.startNanos())).toList();
    }

    int requests() {
        return requests.get();
    }

    List<String> paths() {
        return List.copyOf(paths);
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
