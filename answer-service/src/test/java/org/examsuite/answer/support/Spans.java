package org.examsuite.answer.support;

import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/** Collects the service's spans in memory (Quarkus exports to every SpanExporter bean). */
public class Spans {
    @Produces
    @Singleton
    InMemorySpanExporter exporter() {
        return InMemorySpanExporter.create();
    }
}
