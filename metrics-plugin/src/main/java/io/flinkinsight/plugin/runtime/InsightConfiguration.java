package io.flinkinsight.plugin.runtime;

import io.flinkinsight.common.OptionRange;
import io.flinkinsight.plugin.InsightOptions;
import io.flinkinsight.plugin.ProcessRole;
import io.flinkinsight.plugin.durable.DurableSettings;
import io.flinkinsight.plugin.http.PortAccess;
import io.flinkinsight.plugin.http.PortRange;
import io.flinkinsight.plugin.hub.ClientTarget;
import io.flinkinsight.plugin.hub.HubSettings;
import io.flinkinsight.plugin.store.StoreSettings;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.util.TimeUtils;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Properties;
import java.util.function.Function;

/**
 * The reporter options, read once from a reporter's {@code MetricConfig} and validated: a bad value
 * fails with an {@link IllegalArgumentException} naming the full key the user wrote and what is
 * accepted. {@code role} is the role the option declares, empty for {@code auto}.
 */
public record InsightConfiguration(
        PortRange ports,
        String bindHost,
        Duration historyRetention,
        Duration historyResolution,
        int historyMaxSeries,
        boolean historyOnTaskManagers,
        int checkpointsMaxPerJob,
        int jobsMax,
        boolean hubEnabled,
        String hubFlinkRestUrl,
        Duration hubPollInterval,
        List<ClientTarget> hubClients,
        boolean filterLabelValueCharacters,
        Optional<ProcessRole> role,
        int maxRequestHeaderBytes,
        Duration idleTimeout,
        int maxConnections,
        int httpThreads,
        int maxConnectionsPerAddress,
        Duration requestHeadTimeout,
        PortAccess access,
        boolean dashboardProxy,
        int maxConcurrentScrapes,
        long checkpointsMaxBytes,
        long storesMaxBytes,
        long maxAnswerBytes,
        boolean httpSsl,
        boolean statementsKeepLiterals,
        Duration jobSeriesMinAge,
        DurableSettings storesDir) {

    public static InsightConfiguration defaults() {
        return from(new Properties(), InsightOptions.USER_PREFIX);
    }

    /**
     * Reads the options from {@code config} (keys without prefix, as Flink hands them to a
     * reporter).
     *
     * @param userPrefix how the user spelled the prefix ({@code metrics.reporter.insight.}), for
     *     error messages
     */
    public static InsightConfiguration from(Properties config, String userPrefix) {
        Reader r = new Reader(config, userPrefix);
        PortRange ports;
        String rawPort = r.raw(InsightOptions.PORT);
        try {
            ports = PortRange.parse(rawPort);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    userPrefix + InsightOptions.PORT.key() + ": " + e.getMessage());
        }
        String bindHost = r.raw(InsightOptions.BIND_HOST).trim();
        if (bindHost.isEmpty() || bindHost.chars().anyMatch(Character::isWhitespace)) {
            throw r.invalid(
                    InsightOptions.BIND_HOST,
                    "an IP address or host name such as 0.0.0.0 or 127.0.0.1");
        }
        Duration resolution =
                r.duration(
                        InsightOptions.HISTORY_RESOLUTION, InsightOptions.HISTORY_RESOLUTION_RANGE);
        Duration retention =
                r.duration(
                        InsightOptions.HISTORY_RETENTION, InsightOptions.HISTORY_RETENTION_RANGE);
        if (retention.toMillis() / resolution.toMillis()
                > InsightOptions.HISTORY_MAX_SAMPLES_PER_SERIES) {
            throw new IllegalArgumentException(
                    userPrefix
                            + InsightOptions.HISTORY_RETENTION.key()
                            + " / "
                            + userPrefix
                            + InsightOptions.HISTORY_RESOLUTION.key()
                            + " must be at most "
                            + InsightOptions.HISTORY_MAX_SAMPLES_PER_SERIES
                            + " samples per series, but "
                            + retention
                            + " / "
                            + resolution
                            + " is "
                            + retention.toMillis() / resolution.toMillis());
        }
        String restUrl = r.raw(InsightOptions.HUB_FLINK_REST_URL).trim();
        if (!restUrl.isEmpty() && !isHttpUrl(restUrl)) {
            throw r.invalid(
                    InsightOptions.HUB_FLINK_REST_URL, "empty or an http(s)://host:port URL");
        }
        List<ClientTarget> clients;
        try {
            clients = ClientTarget.parseList(r.raw(InsightOptions.HUB_CLIENTS));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    userPrefix + InsightOptions.HUB_CLIENTS.key() + ": " + e.getMessage());
        }
        boolean keepLiterals = r.bool(InsightOptions.STATEMENTS_KEEP_LITERALS);
        return new InsightConfiguration(
                ports,
                bindHost,
                retention,
                resolution,
                r.integer(
                        InsightOptions.HISTORY_MAX_SERIES, InsightOptions.HISTORY_MAX_SERIES_RANGE),
                r.bool(InsightOptions.HISTORY_ON_TASKMANAGERS),
                r.integer(
                        InsightOptions.CHECKPOINTS_MAX_PER_JOB,
                        InsightOptions.CHECKPOINTS_MAX_PER_JOB_RANGE),
                r.integer(InsightOptions.JOBS_MAX, InsightOptions.JOBS_MAX_RANGE),
                r.bool(InsightOptions.HUB_ENABLED),
                restUrl,
                r.duration(
                        InsightOptions.HUB_POLL_INTERVAL, InsightOptions.HUB_POLL_INTERVAL_RANGE),
                clients,
                r.bool(InsightOptions.FILTER_LABEL_VALUE_CHARACTERS),
                ProcessRole.parseOption(
                        r.raw(InsightOptions.ROLE), userPrefix + InsightOptions.ROLE.key()),
                r.integer(
                        InsightOptions.HTTP_MAX_REQUEST_HEADER_BYTES,
                        InsightOptions.HTTP_MAX_REQUEST_HEADER_BYTES_RANGE),
                r.duration(
                        InsightOptions.HTTP_IDLE_TIMEOUT, InsightOptions.HTTP_IDLE_TIMEOUT_RANGE),
                r.integer(
                        InsightOptions.HTTP_MAX_CONNECTIONS,
                        InsightOptions.HTTP_MAX_CONNECTIONS_RANGE),
                r.integer(InsightOptions.HTTP_THREADS, InsightOptions.HTTP_THREADS_RANGE),
                r.integer(
                        InsightOptions.HTTP_MAX_CONNECTIONS_PER_ADDRESS,
                        InsightOptions.HTTP_MAX_CONNECTIONS_PER_ADDRESS_RANGE),
                r.duration(
                        InsightOptions.HTTP_REQUEST_HEAD_TIMEOUT,
                        InsightOptions.HTTP_REQUEST_HEAD_TIMEOUT_RANGE),
                PortAccess.parse(
                                r.raw(InsightOptions.HTTP_ACCESS),
                                config.getProperty(InsightOptions.HTTP_TOKEN.key(), ""),
                                r.raw(InsightOptions.HTTP_ALLOWED_ORIGINS),
                                r.raw(InsightOptions.HTTP_ALLOWED_HOSTS),
                                userPrefix)
                        .withQueryLogOpen(!keepLiterals),
                r.bool(InsightOptions.HUB_DASHBOARD_PROXY_ENABLED),
                r.integer(
                        InsightOptions.HTTP_MAX_CONCURRENT_SCRAPES,
                        InsightOptions.HTTP_MAX_CONCURRENT_SCRAPES_RANGE),
                r.bytes(
                        InsightOptions.CHECKPOINTS_MAX_BYTES,
                        InsightOptions.CHECKPOINTS_MAX_BYTES_RANGE),
                r.bytes(InsightOptions.STORES_MAX_BYTES, InsightOptions.STORES_MAX_BYTES_RANGE),
                r.bytes(
                        InsightOptions.HTTP_MAX_ANSWER_BYTES,
                        InsightOptions.HTTP_MAX_ANSWER_BYTES_RANGE),
                r.bool(InsightOptions.HTTP_SSL_ENABLED),
                keepLiterals,
                r.duration(
                        InsightOptions.SCRAPE_JOB_SERIES_MIN_AGE,
                        InsightOptions.SCRAPE_JOB_SERIES_MIN_AGE_RANGE),
                storesDir(r, retention));
    }

    private static DurableSettings storesDir(Reader r, Duration historyRetention) {
        Duration retention =
                r.duration(
                        InsightOptions.STORES_DIR_RETENTION,
                        InsightOptions.STORES_DIR_RETENTION_RANGE);
        return new DurableSettings(
                r.raw(InsightOptions.STORES_DIR),
                r.bytes(
                        InsightOptions.STORES_DIR_MAX_BYTES,
                        InsightOptions.STORES_DIR_MAX_BYTES_RANGE),
                retention.isZero() ? historyRetention : retention,
                r.duration(
                        InsightOptions.STORES_DIR_WRITE_INTERVAL,
                        InsightOptions.STORES_DIR_WRITE_INTERVAL_RANGE),
                r.bytes(
                        InsightOptions.STORES_DIR_MAX_BYTES_PER_MINUTE,
                        InsightOptions.STORES_DIR_MAX_BYTES_PER_MINUTE_RANGE));
    }

    /** What the stores may keep, for {@code InsightStores}. */
    public StoreSettings storeSettings() {
        return new StoreSettings(
                historyRetention,
                historyResolution,
                historyMaxSeries,
                checkpointsMaxPerJob,
                jobsMax,
                checkpointsMaxBytes,
                storesMaxBytes,
                statementsKeepLiterals);
    }

    /** How the hub gathers, for {@code Hub}. */
    public HubSettings hubSettings() {
        return new HubSettings(
                hubEnabled, hubFlinkRestUrl, hubPollInterval, hubClients, httpSsl, storesDir);
    }

    private static boolean isHttpUrl(String s) {
        try {
            URI uri = URI.create(s);
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            return (scheme.equals("http") || scheme.equals("https")) && uri.getHost() != null;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** Typed, validated access to the raw properties. */
    private static final class Reader {
        private final Properties config;
        private final String prefix;

        Reader(Properties config, String prefix) {
            this.config = config;
            this.prefix = prefix;
        }

        String raw(ConfigOption<?> option) {
            String v = config.getProperty(option.key());
            return v == null ? String.valueOf(option.defaultValue()) : v;
        }

        IllegalArgumentException invalid(ConfigOption<?> option, String accepted) {
            return new IllegalArgumentException(
                    prefix
                            + option.key()
                            + ": '"
                            + raw(option)
                            + "' is invalid; expected "
                            + accepted);
        }

        int integer(ConfigOption<Integer> option, OptionRange<Integer> range) {
            return inRange(option, range, Integer::parseInt, "");
        }

        boolean bool(ConfigOption<Boolean> option) {
            String v = raw(option).trim().toLowerCase(Locale.ROOT);
            if (v.equals("true") || v.equals("false")) {
                return Boolean.parseBoolean(v);
            }
            throw invalid(option, "true or false");
        }

        long bytes(ConfigOption<MemorySize> option, OptionRange<MemorySize> range) {
            return inRange(option, range, MemorySize::parse, " such as 64 mb or 1 gb").getBytes();
        }

        Duration duration(ConfigOption<Duration> option, OptionRange<Duration> range) {
            return inRange(option, range, TimeUtils::parseDuration, " such as 5 s, 1 min or 1 h");
        }

        /**
         * The value of {@code option} (its default when unset) if {@code parse} reads it and it is
         * in range.
         */
        private <T extends Comparable<? super T>> T inRange(
                ConfigOption<T> option,
                OptionRange<T> range,
                Function<String, T> parse,
                String examples) {
            try {
                String raw = config.getProperty(option.key());
                T value = raw == null ? option.defaultValue() : parse.apply(raw.trim());
                if (range.contains(value)) {
                    return value;
                }
            } catch (RuntimeException e) {
                // reported below with the accepted range
            }
            throw invalid(option, range.acceptedAsInterval() + examples);
        }
    }
}
