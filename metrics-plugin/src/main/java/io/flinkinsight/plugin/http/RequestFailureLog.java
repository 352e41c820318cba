package io.flinkinsight.plugin.http;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Requests that failed inside the plugin: the first {@value #MAX_LOGGED_FAILURES} at WARN, the rest
 * at DEBUG, so a broken endpoint or gauge, asked every few seconds, cannot fill Flink's log. One
 * per server, shared by its handlers.
 */
public final class RequestFailureLog {

    private static final Logger LOG = LoggerFactory.getLogger(RequestFailureLog.class);
    private static final int MAX_LOGGED_FAILURES = 10;

    private final AtomicInteger logged = new AtomicInteger();

    /**
     * @param what what failed, e.g. a path or "the scrape"
     */
    public void failed(String what, Throwable t) {
        if (logged.incrementAndGet() <= MAX_LOGGED_FAILURES) {
            LOG.warn("Flink Insight HTTP: {} failed", what, t);
        } else {
            LOG.debug("Flink Insight HTTP: {} failed", what, t);
        }
    }
}
