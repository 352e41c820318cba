package io.flinkinsight.plugin;

import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Property;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/** Collects log lines ("LEVEL message") while open, so tests can assert what the plugin logs. */
public final class TestingLogCapture implements AutoCloseable {

    private static final AtomicInteger IDS = new AtomicInteger();

    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final AbstractAppender appender;

    public TestingLogCapture() {
        appender =
                new AbstractAppender(
                        "capture-" + IDS.incrementAndGet(),
                        null,
                        null,
                        true,
                        Property.EMPTY_ARRAY) {
                    @Override
                    public void append(LogEvent event) {
                        lines.add(
                                event.getLevel() + " " + event.getMessage().getFormattedMessage());
                    }
                };
        appender.start();
        LoggerContext ctx = (LoggerContext) LogManager.getContext(false);
        ctx.getConfiguration().getRootLogger().addAppender(appender, Level.ALL, null);
        ctx.updateLoggers();
    }

    public List<String> lines() {
        return List.copyOf(lines);
    }

    public List<String> linesAt(String level) {
        return lines.stream().filter(l -> l.startsWith(level + " ")).toList();
    }

    @Override
    public void close() {
        LoggerContext ctx = (LoggerContext) LogManager.getContext(false);
        ctx.getConfiguration().getRootLogger().removeAppender(appender.getName());
        ctx.updateLoggers();
        appender.stop();
    }
}
