package io.flinkinsight.client.config;

import org.apache.flink.configuration.Configuration;

import java.time.Duration;

import static io.flinkinsight.client.config.InteractiveClientOptions.ADMISSION_MAX_HOLD;
import static io.flinkinsight.client.config.InteractiveClientOptions.ADMISSION_MAX_HOLD_RANGE;
import static io.flinkinsight.client.config.InteractiveClientOptions.ADMISSION_TIMEOUT;
import static io.flinkinsight.client.config.InteractiveClientOptions.ADMISSION_TIMEOUT_RANGE;
import static io.flinkinsight.client.config.InteractiveClientOptions.CLIENT_POOL_EXPIRE_AFTER_ACCESS;
import static io.flinkinsight.client.config.InteractiveClientOptions.CLIENT_POOL_EXPIRE_AFTER_ACCESS_RANGE;
import static io.flinkinsight.client.config.InteractiveClientOptions.COLLECT_EXPONENTIAL_ATTEMPTS;
import static io.flinkinsight.client.config.InteractiveClientOptions.COLLECT_EXPONENTIAL_ATTEMPTS_RANGE;
import static io.flinkinsight.client.config.InteractiveClientOptions.COLLECT_EXPONENTIAL_INITIAL_BACKOFF;
import static io.flinkinsight.client.config.InteractiveClientOptions.COLLECT_EXPONENTIAL_INITIAL_BACKOFF_RANGE;
import static io.flinkinsight.client.config.InteractiveClientOptions.COLLECT_EXPONENTIAL_MAX_BACKOFF;
import static io.flinkinsight.client.config.InteractiveClientOptions.COLLECT_EXPONENTIAL_MAX_BACKOFF_RANGE;
import static io.flinkinsight.client.config.InteractiveClientOptions.COLLECT_EXPONENTIAL_MULTIPLIER;
import static io.flinkinsight.client.config.InteractiveClientOptions.COLLECT_EXPONENTIAL_MULTIPLIER_RANGE;
import static io.flinkinsight.client.config.InteractiveClientOptions.COLLECT_FIXED_DELAY;
import static io.flinkinsight.client.config.InteractiveClientOptions.COLLECT_FIXED_DELAY_RANGE;
import static io.flinkinsight.client.config.InteractiveClientOptions.COLLECT_INCREMENTAL_ATTEMPTS;
import static io.flinkinsight.client.config.InteractiveClientOptions.COLLECT_INCREMENTAL_ATTEMPTS_RANGE;
import static io.flinkinsight.client.config.InteractiveClientOptions.COLLECT_INCREMENTAL_INCREMENT;
import static io.flinkinsight.client.config.InteractiveClientOptions.COLLECT_INCREMENTAL_INCREMENT_RANGE;
import static io.flinkinsight.client.config.InteractiveClientOptions.COLLECT_INCREMENTAL_INITIAL_DELAY;
import static io.flinkinsight.client.config.InteractiveClientOptions.COLLECT_INCREMENTAL_INITIAL_DELAY_RANGE;
import static io.flinkinsight.client.config.InteractiveClientOptions.COLLECT_INCREMENTAL_MAX_DELAY;
import static io.flinkinsight.client.config.InteractiveClientOptions.COLLECT_INCREMENTAL_MAX_DELAY_RANGE;
import static io.flinkinsight.client.config.InteractiveClientOptions.COLLECT_STRATEGY_TYPE;
import static io.flinkinsight.client.config.InteractiveClientOptions.FAST_START;
import static io.flinkinsight.client.config.InteractiveClientOptions.FAST_START_RANGE;
import static io.flinkinsight.client.config.InteractiveClientOptions.IO_THREADS;
import static io.flinkinsight.client.config.InteractiveClientOptions.IO_THREADS_RANGE;
import static io.flinkinsight.client.config.InteractiveClientOptions.JOB_HAND_OVER;
import static io.flinkinsight.client.config.InteractiveClientOptions.KEEP_LITERALS;
import static io.flinkinsight.client.config.InteractiveClientOptions.MAX_QUERIES_IN_FLIGHT;
import static io.flinkinsight.client.config.InteractiveClientOptions.MAX_QUERIES_IN_FLIGHT_RANGE;

/**
 * Every option of the interactive client, read from one configuration and checked, once: the
 * executor and the cluster client factory read them as a query or cluster action starts (so a bad
 * value fails it with a message naming the key, the value and the accepted range, before anything
 * is built), and everything downstream takes its values from here. Which of them a process or a
 * cluster keeps is said by each option: {@code io-threads} is the first query's of the process;
 * {@code expire-after-access} and the channel pool's are those of the query that built the
 * cluster's pooled client (see {@code ClusterIdentity}); {@code admission.max-queries} is the first
 * query's of the cluster while queries run or wait on it.
 *
 * @param ioThreads {@link InteractiveClientOptions#IO_THREADS}
 * @param expireAfterAccess {@link InteractiveClientOptions#CLIENT_POOL_EXPIRE_AFTER_ACCESS}
 * @param channelPool the {@code execution.interactive.rest.*} options ({@link ChannelPoolOptions})
 * @param collectStrategy the {@code collect-strategy.*} options
 * @param jobHandOver {@link InteractiveClientOptions#JOB_HAND_OVER}
 * @param admission the {@code execution.interactive.admission.*} options
 * @param fastStart {@link InteractiveClientOptions#FAST_START}
 * @param keepLiterals {@link InteractiveClientOptions#KEEP_LITERALS}
 */
public record InteractiveClientSettings(
        int ioThreads,
        Duration expireAfterAccess,
        ChannelPoolSettings channelPool,
        CollectRetryStrategy collectStrategy,
        JobHandOver jobHandOver,
        AdmissionSettings admission,
        Duration fastStart,
        boolean keepLiterals) {

    /**
     * Reads and checks every option of {@code conf}; of the collect strategies' options only the
     * selected one's, as with Flink's restart strategies.
     *
     * @throws org.apache.flink.configuration.IllegalConfigurationException for the first bad value,
     *     naming its key, the value as written and what is accepted
     */
    public static InteractiveClientSettings fromConfiguration(Configuration conf) {
        return new InteractiveClientSettings(
                ConfigChecks.inRange(conf, IO_THREADS, IO_THREADS_RANGE),
                ConfigChecks.inRange(
                        conf,
                        CLIENT_POOL_EXPIRE_AFTER_ACCESS,
                        CLIENT_POOL_EXPIRE_AFTER_ACCESS_RANGE),
                new ChannelPoolSettings(
                        ConfigChecks.inRange(
                                conf,
                                ChannelPoolOptions.MAX_CONNECTIONS,
                                ChannelPoolOptions.MAX_CONNECTIONS_RANGE),
                        ConfigChecks.inRange(
                                conf,
                                ChannelPoolOptions.ACQUIRE_TIMEOUT,
                                ChannelPoolOptions.ACQUIRE_TIMEOUT_RANGE),
                        ConfigChecks.inRange(
                                conf,
                                ChannelPoolOptions.IDLE_TIMEOUT,
                                ChannelPoolOptions.IDLE_TIMEOUT_RANGE)),
                collectStrategy(conf),
                ConfigChecks.oneOf(conf, JOB_HAND_OVER, JobHandOver.class),
                new AdmissionSettings(
                        ConfigChecks.inRange(
                                conf, MAX_QUERIES_IN_FLIGHT, MAX_QUERIES_IN_FLIGHT_RANGE),
                        ConfigChecks.inRange(conf, ADMISSION_TIMEOUT, ADMISSION_TIMEOUT_RANGE),
                        ConfigChecks.inRange(conf, ADMISSION_MAX_HOLD, ADMISSION_MAX_HOLD_RANGE)),
                ConfigChecks.inRange(conf, FAST_START, FAST_START_RANGE),
                ConfigChecks.bool(conf, KEEP_LITERALS));
    }

    private static CollectRetryStrategy collectStrategy(Configuration conf) {
        CollectRetryStrategy.Type type =
                ConfigChecks.oneOf(conf, COLLECT_STRATEGY_TYPE, CollectRetryStrategy.Type.class);
        switch (type) {
            case FIXED:
                return CollectRetryStrategy.fixed(
                        ConfigChecks.inRange(conf, COLLECT_FIXED_DELAY, COLLECT_FIXED_DELAY_RANGE));
            case EXPONENTIAL:
                {
                    Duration initial =
                            ConfigChecks.inRange(
                                    conf,
                                    COLLECT_EXPONENTIAL_INITIAL_BACKOFF,
                                    COLLECT_EXPONENTIAL_INITIAL_BACKOFF_RANGE);
                    Duration max =
                            ConfigChecks.inRange(
                                    conf,
                                    COLLECT_EXPONENTIAL_MAX_BACKOFF,
                                    COLLECT_EXPONENTIAL_MAX_BACKOFF_RANGE.withMin(initial));
                    double multiplier =
                            ConfigChecks.inRange(
                                    conf,
                                    COLLECT_EXPONENTIAL_MULTIPLIER,
                                    COLLECT_EXPONENTIAL_MULTIPLIER_RANGE);
                    int attempts =
                            ConfigChecks.inRange(
                                    conf,
                                    COLLECT_EXPONENTIAL_ATTEMPTS,
                                    COLLECT_EXPONENTIAL_ATTEMPTS_RANGE);
                    return CollectRetryStrategy.exponential(initial, max, multiplier, attempts);
                }
            case INCREMENTAL:
                {
                    Duration initial =
                            ConfigChecks.inRange(
                                    conf,
                                    COLLECT_INCREMENTAL_INITIAL_DELAY,
                                    COLLECT_INCREMENTAL_INITIAL_DELAY_RANGE);
                    Duration increment =
                            ConfigChecks.inRange(
                                    conf,
                                    COLLECT_INCREMENTAL_INCREMENT,
                                    COLLECT_INCREMENTAL_INCREMENT_RANGE);
                    Duration max =
                            ConfigChecks.inRange(
                                    conf,
                                    COLLECT_INCREMENTAL_MAX_DELAY,
                                    COLLECT_INCREMENTAL_MAX_DELAY_RANGE.withMin(initial));
                    int attempts =
                            ConfigChecks.inRange(
                                    conf,
                                    COLLECT_INCREMENTAL_ATTEMPTS,
                                    COLLECT_INCREMENTAL_ATTEMPTS_RANGE);
                    return CollectRetryStrategy.incremental(initial, increment, max, attempts);
                }
            default:
                throw new IllegalStateException("Unknown collect strategy " + type);
        }
    }
}
