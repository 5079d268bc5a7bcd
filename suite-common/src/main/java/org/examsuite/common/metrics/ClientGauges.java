package org.examsuite.common.metrics;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.config.MeterFilterReply;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/**
 * Drops the gauges Quarkus's Vert.x binder registers once per client connection (the SQL and
 * Redis clients' {@code <type>.queue.size} and {@code <type>.current}, tagged {@code clientType})
 * or once per HTTP client instance ({@code http.client.*}), each over a counter of its own: the
 * first registration won, every later one logged "Gauge has been already registered" and was
 * ignored, so the gauge showed one connection's figure. The pools' gauges ({@code sql.pool.*},
 * {@code redis.pool.*}) and the clients' timers and counters are kept.
 */
@ApplicationScoped
public class ClientGauges {

    @Produces
    @Singleton
    MeterFilter perConnectionGauges() {
        return filter();
    }

    static MeterFilter filter() {
        return new MeterFilter() {
            @Override
            public MeterFilterReply accept(Meter.Id id) {
                return perConnection(id) ? MeterFilterReply.DENY : MeterFilterReply.NEUTRAL;
            }
        };
    }

    static boolean perConnection(Meter.Id id) {
        return id.getType() == Meter.Type.GAUGE
                && (id.getTag("clientType") != null || id.getName().startsWith("http.client."));
    }
}
