package io.flinkinsight.plugin.runtime;

import io.flinkinsight.plugin.InsightOptions;

import org.apache.flink.annotation.VisibleForTesting;
import org.apache.flink.configuration.ConfigOption;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.util.Properties;

/**
 * The one {@link InsightRuntime} of the process, reference-counted across the metric, trace and
 * event reporters. Flink 2.2 loads the three from one plugin class loader, so this static state is
 * shared by them. The reporter that opens first (the metric reporter, in Flink 2.2) configures the
 * runtime; the last {@link #release} stops it.
 */
public final class SharedRuntime {

    private static final Logger LOG = LoggerFactory.getLogger(SharedRuntime.class);
    private static final Object LOCK = new Object();

    private static InsightRuntime instance;
    private static int references;

    private SharedRuntime() {}

    /**
     * Returns the process's runtime, starting it on first use.
     *
     * @param config the reporter's options, prefix stripped
     * @param userPrefix how the user spelled the prefix, e.g. {@code traces.reporter.insight.}, for
     *     messages
     * @throws IllegalArgumentException when an option is invalid (Flink then leaves this reporter
     *     out)
     */
    public static InsightRuntime acquire(Properties config, String userPrefix) {
        InsightConfiguration parsed = InsightConfiguration.from(config, userPrefix);
        synchronized (LOCK) {
            if (instance == null) {
                instance = InsightRuntime.start(parsed, Clock.systemUTC());
            } else if (!parsed.equals(instance.config()) && setsAnyOption(config)) {
                LOG.warn(
                        "Flink Insight: options under {}* are ignored; the shared server and stores were already"
                                + " configured by the reporter that opened first (put them under {}*)",
                        userPrefix,
                        InsightOptions.USER_PREFIX);
            }
            references++;
            return instance;
        }
    }

    /** Gives back a runtime from {@link #acquire}; the last release stops it. */
    public static void release(InsightRuntime runtime) {
        synchronized (LOCK) {
            if (runtime == null || runtime != instance || --references > 0) {
                return;
            }
            instance = null;
            // Closed under the lock, so a runtime acquired next finds the port free again.
            runtime.close();
        }
    }

    /** The running runtime, or null; for tests and diagnostics. */
    @VisibleForTesting
    public static InsightRuntime current() {
        synchronized (LOCK) {
            return instance;
        }
    }

    private static boolean setsAnyOption(Properties config) {
        for (ConfigOption<?> option : InsightOptions.all()) {
            if (config.getProperty(option.key()) != null) {
                return true;
            }
        }
        return false;
    }
}
