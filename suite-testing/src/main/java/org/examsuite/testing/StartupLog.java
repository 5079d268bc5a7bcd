package org.examsuite.testing;

import io.micrometer.core.instrument.Metrics;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;
import java.util.stream.Collectors;

/**
 * Records the warnings Micrometer logs from just before the application under test starts until
 * its class ends (issue 22: every service logged "This Gauge has been already registered", first
 * for the {@code redis.pool.*} gauges, then per client connection). Use it on one test class with
 * {@code restrictToAnnotatedClass = true}, so that it is started just before that class's own
 * application start; the class receives what was logged in a field {@code List<String>
 * startupWarnings}. Also hands out {@link TestKeys}' configuration, so that the class needs no
 * other resource.
 *
 * <p>Two things of a test JVM that a deployed service never sees are accounted for. Micrometer
 * warns of a double registration once per JVM and says the later ones at debug level: those are
 * recorded too. And the applications started before this one in the same JVM left their meters
 * in the static global registry, where the new application registers the same ones again (the
 * Vert.x worker pool's gauges): double registrations of meters that existed before this start
 * are not this application's.
 */
public class StartupLog implements QuarkusTestResourceLifecycleManager {
    /** Where Micrometer's registries log (io.micrometer.core.instrument.MeterRegistry and others). */
    private static final String CATEGORY = "io.micrometer";
    private static final String DOUBLE_REGISTRATION = "has been already registered";

    private final List<String> warnings = new CopyOnWriteArrayList<>();
    private Logger logger; // held: JUL keeps loggers only weakly
    private Level level;
    private Handler handler;

    @Override
    public Map<String, String> start() {
        SimpleFormatter format = new SimpleFormatter();
        Set<String> earlier = Metrics.globalRegistry.getMeters().stream().map(m -> m.getId().toString())
                .collect(Collectors.toSet());
        handler = new Handler() {
            @Override
            public void publish(LogRecord record) {
                String message = format.formatMessage(record);
                boolean doubleRegistration = message.contains(DOUBLE_REGISTRATION);
                if (doubleRegistration && earlier.stream().anyMatch(message::contains)) {
                    return;
                }
                if (doubleRegistration || record.getLevel().intValue() >= Level.WARNING.intValue()) {
                    warnings.add(record.getLoggerName() + ": " + message);
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        logger = Logger.getLogger(CATEGORY);
        level = logger.getLevel();
        logger.setLevel(Level.FINE);
        logger.addHandler(handler);
        return TestKeys.config();
    }

    @Override
    public void inject(TestInjector injector) {
        injector.injectIntoFields(warnings, field -> field.getName().equals("startupWarnings")
                && field.getType().isAssignableFrom(List.class));
    }

    @Override
    public void stop() {
        if (logger != null) {
            logger.removeHandler(handler);
            logger.setLevel(level);
        }
    }
}
