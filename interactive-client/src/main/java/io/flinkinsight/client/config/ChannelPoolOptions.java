package io.flinkinsight.client.config;

import io.flinkinsight.common.OptionRange;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;

import java.time.Duration;

/**
 * Options of the keep-alive REST channel pool, one pool per JobManager REST address (host:port),
 * each with the range it accepts declared just before it and said in its description.
 */
public final class ChannelPoolOptions {

    public static final OptionRange<Integer> MAX_CONNECTIONS_RANGE = OptionRange.integersFrom(1);

    public static final ConfigOption<Integer> MAX_CONNECTIONS =
            ConfigOptions.key("execution.interactive.rest.max-connections")
                    .intType()
                    .defaultValue(32)
                    .withDescription(
                            "Most keep-alive connections the interactive client keeps open to one JobManager REST"
                                    + " endpoint ("
                                    + MAX_CONNECTIONS_RANGE
                                    + "). Each connection carries one request"
                                    + " at a time; further requests wait for a free connection, up to the acquire"
                                    + " timeout.");

    public static final OptionRange<Duration> ACQUIRE_TIMEOUT_RANGE =
            OptionRange.durations(Duration.ofMillis(1), Duration.ofDays(1));

    public static final ConfigOption<Duration> ACQUIRE_TIMEOUT =
            ConfigOptions.key("execution.interactive.rest.acquire-timeout")
                    .durationType()
                    .defaultValue(Duration.ofSeconds(10))
                    .withDescription(
                            "How long a REST request waits for a free pooled connection when all of"
                                    + " execution.interactive.rest.max-connections are busy, before it fails ("
                                    + ACQUIRE_TIMEOUT_RANGE
                                    + ").");

    public static final OptionRange<Duration> IDLE_TIMEOUT_RANGE =
            OptionRange.durations(Duration.ofMillis(1), Duration.ofDays(1));

    public static final ConfigOption<Duration> IDLE_TIMEOUT =
            ConfigOptions.key("execution.interactive.rest.idle-timeout")
                    .durationType()
                    .defaultValue(Duration.ofSeconds(30))
                    .withDescription(
                            "A pooled keep-alive connection that carried no request for this long is closed ("
                                    + IDLE_TIMEOUT_RANGE
                                    + "). The JobManager does not close idle connections"
                                    + " itself.");

    private ChannelPoolOptions() {}
}
