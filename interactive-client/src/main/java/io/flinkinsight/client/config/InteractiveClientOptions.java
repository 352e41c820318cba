package io.flinkinsight.client.config;

import io.flinkinsight.common.OptionRange;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;

import java.time.Duration;
import java.util.List;

/**
 * Options of the interactive client (everything but the REST channel pool, see {@code
 * ChannelPoolOptions}), each numeric one with the range it accepts declared just before it and said
 * in its description. They are read from the client's configuration (the SQL Gateway's {@code
 * config.yaml} or a session's {@code SET}), all at once, by {@link
 * InteractiveClientSettings#fromConfiguration}.
 */
public final class InteractiveClientOptions {

    /** The value of {@code execution.target} that selects this client. */
    public static final String TARGET = "remote-interactive";

    public static final OptionRange<Duration> CLIENT_POOL_EXPIRE_AFTER_ACCESS_RANGE =
            OptionRange.durations(Duration.ofSeconds(1), Duration.ofDays(7));

    public static final ConfigOption<Duration> CLIENT_POOL_EXPIRE_AFTER_ACCESS =
            ConfigOptions.key("execution.interactive.client-pool.expire-after-access")
                    .durationType()
                    .defaultValue(Duration.ofMinutes(30))
                    .withDescription(
                            "A pooled cluster client that no query or request has used for this long is closed"
                                    + " ("
                                    + CLIENT_POOL_EXPIRE_AFTER_ACCESS_RANGE
                                    + "). Clients in use are never"
                                    + " closed.");

    public static final OptionRange<Integer> IO_THREADS_RANGE = OptionRange.integers(1, 64);

    public static final ConfigOption<Integer> IO_THREADS =
            ConfigOptions.key("execution.interactive.io-threads")
                    .intType()
                    .defaultValue(2)
                    .withDescription(
                            "Threads of the one Netty event loop shared by all pooled cluster clients of the process"
                                    + " ("
                                    + IO_THREADS_RANGE
                                    + "). Read once per process, from the configuration"
                                    + " of the first query.");

    public static final OptionRange<Integer> MAX_QUERIES_IN_FLIGHT_RANGE =
            OptionRange.integers(0, 100_000);

    public static final ConfigOption<Integer> MAX_QUERIES_IN_FLIGHT =
            ConfigOptions.key("execution.interactive.admission.max-queries")
                    .intType()
                    .defaultValue(16)
                    .withDescription(
                            "Queries (jobs that collect results) this process keeps running on one cluster at once;"
                                    + " more wait in the client, in order of arrival, until one ends ("
                                    + MAX_QUERIES_IN_FLIGHT_RANGE
                                    + "; 0 turns the cap off). Read from the"
                                    + " configuration of a cluster's first query and kept while queries of this"
                                    + " process run or wait on it.");

    public static final OptionRange<Duration> ADMISSION_TIMEOUT_RANGE =
            OptionRange.durations(Duration.ofMillis(1), Duration.ofDays(1));

    public static final ConfigOption<Duration> ADMISSION_TIMEOUT =
            ConfigOptions.key("execution.interactive.admission.timeout")
                    .durationType()
                    .defaultValue(Duration.ofMinutes(5))
                    .withDescription(
                            "Longest wait of a query for a place under admission.max-queries; then it fails with"
                                    + " an error naming both options ("
                                    + ADMISSION_TIMEOUT_RANGE
                                    + ").");

    public static final OptionRange<Duration> ADMISSION_MAX_HOLD_RANGE =
            OptionRange.durations(Duration.ofMillis(1), Duration.ofDays(1));

    public static final ConfigOption<Duration> ADMISSION_MAX_HOLD =
            ConfigOptions.key("execution.interactive.admission.max-hold")
                    .durationType()
                    .defaultValue(Duration.ofSeconds(10))
                    .withDescription(
                            "A query that has run this long gives its place to the next one, so long streaming"
                                    + " queries do not hold back short ones ("
                                    + ADMISSION_MAX_HOLD_RANGE
                                    + ").");

    public static final ConfigOption<String> JOB_HAND_OVER =
            ConfigOptions.key("execution.interactive.job-hand-over")
                    .stringType()
                    .defaultValue("auto")
                    .withDescription(
                            "When a query's job is handed to the caller (the SQL Gateway then tells its clients the"
                                    + " statement is ready): submitted (once the JobManager accepted it), results"
                                    + " (once its first results are in or it has ended, at most 1 s later; the"
                                    + " gateway's JDBC clients meanwhile poll every 100 ms instead of in a tight"
                                    + " loop) or auto (the default: results while other queries of this process"
                                    + " run on the same cluster, else submitted).");

    public static final OptionRange<Duration> FAST_START_RANGE =
            OptionRange.durations(Duration.ZERO, Duration.ofHours(1));

    public static final ConfigOption<Duration> FAST_START =
            ConfigOptions.key("execution.interactive.fast-start")
                    .durationType()
                    .defaultValue(Duration.ofSeconds(2))
                    .withDescription(
                            "For this long after a query was submitted, and while no other query of this process"
                                    + " runs on the same cluster, while the query's collect sink has not been reached"
                                    + " (its job starts, or ends before the sink answers), the client asks for the"
                                    + " job's end at the collect strategy's pace once the job may have ended (after"
                                    + " the shortest usual run of the process's recent jobs like it), so a short"
                                    + " query's end is seen within a few ms, for a few more REST requests to the"
                                    + " JobManager. Otherwise (among other queries, or later) its polls for results"
                                    + " go at most every 100 ms while the sink has not been reached, Flink's own"
                                    + " fetcher's pace, each after one question for the end once the job may have"
                                    + " ended, sparing the JobManager's capacity ("
                                    + FAST_START_RANGE
                                    + "; 0 turns it off).");

    public static final ConfigOption<Boolean> KEEP_LITERALS =
            ConfigOptions.key("execution.interactive.statements.keep-literals")
                    .booleanType()
                    .defaultValue(false)
                    .withDescription(
                            "Whether a query's span keeps its statement's literals (numbers, strings) as"
                                    + " written, marked literalsKept, instead of replacing each by ?. Off by default:"
                                    + " literals can carry personal data. The Insight plugin keeps them only when its"
                                    + " own statements.keep-literals is true too; else it replaces them as before.");

    public static final ConfigOption<String> COLLECT_STRATEGY_TYPE =
            ConfigOptions.key("collect-strategy.type")
                    .stringType()
                    .defaultValue("incremental")
                    .withDescription(
                            "How long the client waits between two polls for query results that came back empty:"
                                    + " incremental (the default: 5 ms, 5 ms more after each empty poll, at most"
                                    + " 50 ms, see incremental-delay.*), exponential, or fixed (fixed-delay.delay;"
                                    + " fixed with 100 ms is Flink's own client).");

    public static final OptionRange<Duration> COLLECT_FIXED_DELAY_RANGE =
            OptionRange.durations(Duration.ofMillis(1), Duration.ofMinutes(1));

    public static final ConfigOption<Duration> COLLECT_FIXED_DELAY =
            ConfigOptions.key("collect-strategy.fixed-delay.delay")
                    .durationType()
                    .defaultValue(Duration.ofMillis(100))
                    .withDescription(
                            "Wait between two result polls with the fixed strategy ("
                                    + COLLECT_FIXED_DELAY_RANGE
                                    + ").");

    public static final OptionRange<Duration> COLLECT_EXPONENTIAL_INITIAL_BACKOFF_RANGE =
            OptionRange.durations(Duration.ofMillis(1), Duration.ofMinutes(1));

    public static final ConfigOption<Duration> COLLECT_EXPONENTIAL_INITIAL_BACKOFF =
            ConfigOptions.key("collect-strategy.exponential-delay.initial-backoff")
                    .durationType()
                    .defaultValue(Duration.ofMillis(100))
                    .withDescription(
                            "First wait of the exponential strategy ("
                                    + COLLECT_EXPONENTIAL_INITIAL_BACKOFF_RANGE
                                    + ").");

    public static final OptionRange<Duration> COLLECT_EXPONENTIAL_MAX_BACKOFF_RANGE =
            OptionRange.durationsFrom("the initial backoff", Duration.ofMinutes(10));

    public static final ConfigOption<Duration> COLLECT_EXPONENTIAL_MAX_BACKOFF =
            ConfigOptions.key("collect-strategy.exponential-delay.max-backoff")
                    .durationType()
                    .defaultValue(Duration.ofSeconds(1))
                    .withDescription(
                            "Longest wait of the exponential strategy ("
                                    + COLLECT_EXPONENTIAL_MAX_BACKOFF_RANGE
                                    + ").");

    public static final OptionRange<Double> COLLECT_EXPONENTIAL_MULTIPLIER_RANGE =
            OptionRange.numbers(1.0, 100.0);

    public static final ConfigOption<Double> COLLECT_EXPONENTIAL_MULTIPLIER =
            ConfigOptions.key("collect-strategy.exponential-delay.backoff-multiplier")
                    .doubleType()
                    .defaultValue(1.0)
                    .withDescription(
                            "Factor by which each wait of the exponential strategy grows ("
                                    + COLLECT_EXPONENTIAL_MULTIPLIER_RANGE
                                    + ").");

    public static final OptionRange<Integer> COLLECT_EXPONENTIAL_ATTEMPTS_RANGE =
            OptionRange.integersFrom(1);

    public static final ConfigOption<Integer> COLLECT_EXPONENTIAL_ATTEMPTS =
            ConfigOptions.key("collect-strategy.exponential-delay.attempts")
                    .intType()
                    .defaultValue(Integer.MAX_VALUE)
                    .withDescription(
                            "Empty polls in a row after which the exponential strategy starts over from the"
                                    + " initial backoff ("
                                    + COLLECT_EXPONENTIAL_ATTEMPTS_RANGE
                                    + ").");

    public static final OptionRange<Duration> COLLECT_INCREMENTAL_INITIAL_DELAY_RANGE =
            OptionRange.durations(Duration.ofMillis(1), Duration.ofMinutes(1));

    public static final ConfigOption<Duration> COLLECT_INCREMENTAL_INITIAL_DELAY =
            ConfigOptions.key("collect-strategy.incremental-delay.initial-delay")
                    .durationType()
                    .defaultValue(Duration.ofMillis(5))
                    .withDescription(
                            "First wait of the incremental strategy ("
                                    + COLLECT_INCREMENTAL_INITIAL_DELAY_RANGE
                                    + ").");

    /**
     * At most a minute, so that no number of steps (an int) times the increment overflows a long of
     * ms.
     */
    public static final OptionRange<Duration> COLLECT_INCREMENTAL_INCREMENT_RANGE =
            OptionRange.durations(Duration.ZERO, Duration.ofMinutes(1));

    public static final ConfigOption<Duration> COLLECT_INCREMENTAL_INCREMENT =
            ConfigOptions.key("collect-strategy.incremental-delay.increment")
                    .durationType()
                    .defaultValue(Duration.ofMillis(5))
                    .withDescription(
                            "Amount added to each next wait of the incremental strategy ("
                                    + COLLECT_INCREMENTAL_INCREMENT_RANGE
                                    + ").");

    public static final OptionRange<Duration> COLLECT_INCREMENTAL_MAX_DELAY_RANGE =
            OptionRange.durationsFrom("the initial delay", Duration.ofMinutes(10));

    public static final ConfigOption<Duration> COLLECT_INCREMENTAL_MAX_DELAY =
            ConfigOptions.key("collect-strategy.incremental-delay.max-delay")
                    .durationType()
                    .defaultValue(Duration.ofMillis(50))
                    .withDescription(
                            "Longest wait of the incremental strategy ("
                                    + COLLECT_INCREMENTAL_MAX_DELAY_RANGE
                                    + ").");

    public static final OptionRange<Integer> COLLECT_INCREMENTAL_ATTEMPTS_RANGE =
            OptionRange.integersFrom(1);

    public static final ConfigOption<Integer> COLLECT_INCREMENTAL_ATTEMPTS =
            ConfigOptions.key("collect-strategy.incremental-delay.attempts")
                    .intType()
                    .defaultValue(Integer.MAX_VALUE)
                    .withDescription(
                            "Empty polls in a row after which the incremental strategy starts over from the"
                                    + " initial delay ("
                                    + COLLECT_INCREMENTAL_ATTEMPTS_RANGE
                                    + ").");

    private InteractiveClientOptions() {}

    /**
     * Every option of the interactive client, the channel pool's included, in the order the README
     * lists them.
     */
    public static List<ConfigOption<?>> all() {
        return List.of(
                CLIENT_POOL_EXPIRE_AFTER_ACCESS,
                IO_THREADS,
                MAX_QUERIES_IN_FLIGHT,
                ADMISSION_TIMEOUT,
                ADMISSION_MAX_HOLD,
                JOB_HAND_OVER,
                FAST_START,
                KEEP_LITERALS,
                ChannelPoolOptions.MAX_CONNECTIONS,
                ChannelPoolOptions.ACQUIRE_TIMEOUT,
                ChannelPoolOptions.IDLE_TIMEOUT,
                COLLECT_STRATEGY_TYPE,
                COLLECT_FIXED_DELAY,
                COLLECT_EXPONENTIAL_INITIAL_BACKOFF,
                COLLECT_EXPONENTIAL_MAX_BACKOFF,
                COLLECT_EXPONENTIAL_MULTIPLIER,
                COLLECT_EXPONENTIAL_ATTEMPTS,
                COLLECT_INCREMENTAL_INITIAL_DELAY,
                COLLECT_INCREMENTAL_INCREMENT,
                COLLECT_INCREMENTAL_MAX_DELAY,
                COLLECT_INCREMENTAL_ATTEMPTS);
    }
}
