package org.examsuite.common.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ClientGaugesTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    ClientGaugesTest() {
        registry.config().meterFilter(ClientGauges.filter());
    }

    @Test
    void aClientConnectionsGaugesAreDropped() {
        AtomicInteger first = new AtomicInteger(3);
        AtomicInteger second = new AtomicInteger(5);
        Gauge.builder("postgresql.queue.size", first::get).tag("clientType", "postgresql").register(registry);
        Gauge.builder("postgresql.queue.size", second::get).tag("clientType", "postgresql").register(registry);
        Gauge.builder("http.client.active.connections", first::get).tag("clientName", "submission").register(registry);
        assertNull(registry.find("postgresql.queue.size").gauge());
        assertNull(registry.find("http.client.active.connections").gauge());
    }

    @Test
    void poolGaugesAndClientCountersStay() {
        AtomicInteger waiting = new AtomicInteger(2);
        Gauge.builder("sql.pool.queue.size", waiting::get).tag("pool.type", "sql").register(registry);
        Counter.builder("postgresql.completed").tag("clientType", "postgresql").register(registry).increment();
        assertEquals(2.0, registry.find("sql.pool.queue.size").gauge().value());
        assertNotNull(registry.find("postgresql.completed").counter());
    }
}
