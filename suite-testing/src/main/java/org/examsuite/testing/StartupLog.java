package org.examsuite.testing;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

/**
 * Records the warnings Micrometer logs while the application under test starts (issue 22: every
 * service logged "This Gauge has been already registered" for the {@code redis.pool.*} gauges).
 * Use it on one test class with {@code restrictToAnnotatedClass = true}, so that it is started
 * just before that class's own application start; the class receives what was logged in a field
 * {@code List<String> startupWarnings}. Also hands out {@link TestKeys}' configuration, so that
 * the class needs no other resource.
 */
public class StartupLog implements QuarkusTestResourceLifecycleManager {
    /** Where Micrometer's registries log (io.micrometer.core.instrument.MeterRegistry and others). */
    private static final String CATEGORY = "io.micrometer";

    private final List<String> warnings = new CopyOnWriteArrayList<>();
    private Logger logger; // held: JUL keeps loggers only weakly
    private Handler handler;

    @Override
    public Map<String, String> start() {
        SimpleFormatter format = new SimpleFormatter();
        handler = new Handler() {
            @Override
            public void publish(LogRecord record) {
                if (record.getLevel().intValue() >= Level.WARNING.intValue()) {
                    warnings.add(record.getLoggerName() + ": " + format.formatMessage(record));
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
        }
    }
}
