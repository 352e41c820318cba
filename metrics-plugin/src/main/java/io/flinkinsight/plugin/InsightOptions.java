package io.flinkinsight.plugin;

import io.flinkinsight.common.OptionRange;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.MemorySize;

import java.time.Duration;
import java.util.List;

/**
 * Every option of the Flink Insight reporters, as Flink {@link ConfigOption}s. Keys are relative to
 * the reporter: users write {@code metrics.reporter.insight.<key>} in Flink's configuration; Flink
 * strips the prefix before the reporter sees it. The three reporters (metric, trace, event) share
 * one HTTP server and one set of stores per process, configured by the reporter that opens first,
 * which in Flink 2.2 is the metric reporter. Each numeric option's accepted range is declared just
 * before it ({@code *_RANGE}), said in its description and enforced by {@code
 * InsightConfiguration}.
 */
public final class InsightOptions {

    /**
     * The prefix users put in front of every key; used in error messages so they name the key users
     * wrote.
     */
    public static final String USER_PREFIX = "metrics.reporter.insight.";

    public static final ConfigOption<String> PORT =
            ConfigOptions.key("port")
                    .stringType()
                    .defaultValue("9250-9260")
                    .withDescription(
                            "Port of the HTTP server: one port (9250), a list (9250,9251) or a range (9250-9260);"
                                    + " the first free one is used, so several Flink processes on one host can share"
                                    + " the setting. 0 picks any free port.");

    public static final ConfigOption<String> BIND_HOST =
            ConfigOptions.key("bind-host")
                    .stringType()
                    .defaultValue("0.0.0.0")
                    .withDescription(
                            "Address the HTTP server binds to. The default reaches as far as Flink's"
                                    + " PrometheusReporter (all interfaces); use 127.0.0.1 to keep it local.");

    public static final OptionRange<Duration> HISTORY_RETENTION_RANGE =
            OptionRange.durations(Duration.ofMinutes(1), Duration.ofDays(7));

    public static final ConfigOption<Duration> HISTORY_RETENTION =
            ConfigOptions.key("history.retention")
                    .durationType()
                    .defaultValue(Duration.ofHours(1))
                    .withDescription(
                            "How long sampled metric history is kept ("
                                    + HISTORY_RETENTION_RANGE
                                    + ").");

    public static final OptionRange<Duration> HISTORY_RESOLUTION_RANGE =
            OptionRange.durations(Duration.ofSeconds(1), Duration.ofHours(1));

    /**
     * Caps samples per series so a long retention with a fine resolution cannot take the host's
     * heap.
     */
    public static final long HISTORY_MAX_SAMPLES_PER_SERIES = 100_000;

    public static final ConfigOption<Duration> HISTORY_RESOLUTION =
            ConfigOptions.key("history.resolution")
                    .durationType()
                    .defaultValue(Duration.ofSeconds(5))
                    .withDescription(
                            "Interval at which current metric values are sampled into the history"
                                    + " ("
                                    + HISTORY_RESOLUTION_RANGE
                                    + ", at most "
                                    + HISTORY_MAX_SAMPLES_PER_SERIES
                                    + " samples per retention).");

    public static final OptionRange<Integer> HISTORY_MAX_SERIES_RANGE =
            OptionRange.integers(1, 1_000_000);

    public static final ConfigOption<Integer> HISTORY_MAX_SERIES =
            ConfigOptions.key("history.max-series")
                    .intType()
                    .defaultValue(20000)
                    .withDescription(
                            "Most time series kept in the history ("
                                    + HISTORY_MAX_SERIES_RANGE
                                    + "). When it is full,"
                                    + " the series written longest ago (a finished job's) make room for new ones, so a"
                                    + " new job always gets history; counted in"
                                    + " flink_insight_history_series_evicted_total.");

    public static final ConfigOption<Boolean> HISTORY_ON_TASKMANAGERS =
            ConfigOptions.key("history.on-taskmanagers")
                    .booleanType()
                    .defaultValue(false)
                    .withDescription(
                            "Whether TaskManagers sample their metrics into a history of their own (served on their"
                                    + " /api/v1/series). The hub reads TaskManager metrics through Flink's REST API, so"
                                    + " by default TaskManagers keep none and spend no heap or CPU on it; /metrics is"
                                    + " served either way.");

    public static final OptionRange<Integer> CHECKPOINTS_MAX_PER_JOB_RANGE =
            OptionRange.integers(1, 100_000);

    public static final ConfigOption<Integer> CHECKPOINTS_MAX_PER_JOB =
            ConfigOptions.key("checkpoints.max-per-job")
                    .intType()
                    .defaultValue(1000)
                    .withDescription(
                            "Most checkpoints remembered per job ("
                                    + CHECKPOINTS_MAX_PER_JOB_RANGE
                                    + "); the oldest"
                                    + " are dropped.");

    public static final OptionRange<MemorySize> CHECKPOINTS_MAX_BYTES_RANGE = sizes("1 mb", "4 gb");

    public static final ConfigOption<MemorySize> CHECKPOINTS_MAX_BYTES =
            ConfigOptions.key("checkpoints.max-bytes")
                    .memoryType()
                    .defaultValue(MemorySize.ofMebiBytes(64))
                    .withDescription(
                            "Most heap the remembered checkpoints may take, estimated ("
                                    + CHECKPOINTS_MAX_BYTES_RANGE
                                    + "), within stores.max-bytes: half of its default. When over, finished jobs'"
                                    + " checkpoints go first, then running jobs' oldest; each running job keeps its"
                                    + " newest.");

    public static final OptionRange<MemorySize> STORES_MAX_BYTES_RANGE = sizes("16 mb", "16 gb");

    public static final ConfigOption<MemorySize> STORES_MAX_BYTES =
            ConfigOptions.key("stores.max-bytes")
                    .memoryType()
                    .defaultValue(MemorySize.ofMebiBytes(128))
                    .withDescription(
                            "Most heap the process's stores may take together, estimated: metric history,"
                                    + " checkpoints, jobs and, in the SQL Gateway, the statements (at most 1/16 of it) ("
                                    + STORES_MAX_BYTES_RANGE
                                    + "). 128 mb is an eighth"
                                    + " of the 1 GB heap Flink gives a JobManager by default"
                                    + " (jobmanager.memory.process.size 1600m). Checked every history.resolution;"
                                    + " when over, the jobs that finished longest ago lose their data first"
                                    + " (checkpoints, then history, then the job), then series no longer written,"
                                    + " then running jobs' oldest checkpoints: a running job keeps its newest"
                                    + " checkpoint and the series it still writes. Counted in"
                                    + " flink_insight_stores_bytes and the flink_insight_*_evicted_total figures.");

    /** The value of {@link #STORES_DIR} that keeps the stores in memory only, even under HA. */
    public static final String STORES_DIR_NONE = "none";

    public static final ConfigOption<String> STORES_DIR =
            ConfigOptions.key("stores.dir")
                    .stringType()
                    .defaultValue("")
                    .withDescription(
                            "Where the hub writes what it keeps (history, checkpoints, jobs, statements) so that a"
                                    + " restarted or newly elected JobManager reads it back: a directory URI Flink's"
                                    + " file systems know (s3://, hdfs://, file://, as for checkpoints). Empty: under"
                                    + " high-availability.storageDir (<storageDir>/<high-availability.cluster-id>/insight)"
                                    + " when high availability is on, else memory only. '"
                                    + "none"
                                    + "': memory only. A directory that cannot be written leaves the hub in memory,"
                                    + " said in the log, the overview and flink_insight_stores_dir_failures_total.");

    public static final OptionRange<MemorySize> STORES_DIR_MAX_BYTES_RANGE =
            sizes("16 mb", "512 gb");

    public static final ConfigOption<MemorySize> STORES_DIR_MAX_BYTES =
            ConfigOptions.key("stores.dir.max-bytes")
                    .memoryType()
                    .defaultValue(MemorySize.ofMebiBytes(1024))
                    .withDescription(
                            "Most bytes the hub keeps in stores.dir ("
                                    + STORES_DIR_MAX_BYTES_RANGE
                                    + "); the oldest files go first.");

    public static final OptionRange<Duration> STORES_DIR_RETENTION_RANGE =
            OptionRange.durations(Duration.ZERO, Duration.ofDays(90));

    public static final ConfigOption<Duration> STORES_DIR_RETENTION =
            ConfigOptions.key("stores.dir.retention")
                    .durationType()
                    .defaultValue(Duration.ZERO)
                    .withDescription(
                            "How long files in stores.dir are kept ("
                                    + STORES_DIR_RETENTION_RANGE
                                    + "); 0: as long as history.retention. What is read back on start is"
                                    + " what fits in history.retention and stores.max-bytes.");

    public static final OptionRange<Duration> STORES_DIR_WRITE_INTERVAL_RANGE =
            OptionRange.durations(Duration.ofSeconds(1), Duration.ofMinutes(30));

    public static final ConfigOption<Duration> STORES_DIR_WRITE_INTERVAL =
            ConfigOptions.key("stores.dir.write-interval")
                    .durationType()
                    .defaultValue(Duration.ofMinutes(1))
                    .withDescription(
                            "How often the hub writes what is new to stores.dir ("
                                    + STORES_DIR_WRITE_INTERVAL_RANGE
                                    + "): at most this much is lost when the JobManager is killed.");

    public static final OptionRange<MemorySize> STORES_DIR_MAX_BYTES_PER_MINUTE_RANGE =
            sizes("64 kb", "1 gb");

    public static final ConfigOption<MemorySize> STORES_DIR_MAX_BYTES_PER_MINUTE =
            ConfigOptions.key("stores.dir.max-bytes-per-minute")
                    .memoryType()
                    .defaultValue(MemorySize.ofMebiBytes(16))
                    .withDescription(
                            "Most bytes the hub writes to stores.dir per minute ("
                                    + STORES_DIR_MAX_BYTES_PER_MINUTE_RANGE
                                    + "); what does not fit waits for the next write, the newest history last.");

    public static final OptionRange<Integer> JOBS_MAX_RANGE = OptionRange.integers(1, 100_000);

    public static final ConfigOption<Integer> JOBS_MAX =
            ConfigOptions.key("jobs.max")
                    .intType()
                    .defaultValue(1000)
                    .withDescription(
                            "Most jobs remembered ("
                                    + JOBS_MAX_RANGE
                                    + "); the oldest finished jobs are dropped"
                                    + " first.");

    public static final ConfigOption<Boolean> HUB_ENABLED =
            ConfigOptions.key("hub.enabled")
                    .booleanType()
                    .defaultValue(true)
                    .withDescription(
                            "Whether the JobManager's instance gathers what the panel needs from Flink's REST API."
                                    + " Has no effect in other processes.");

    public static final ConfigOption<String> HUB_FLINK_REST_URL =
            ConfigOptions.key("hub.flink-rest-url")
                    .stringType()
                    .defaultValue("")
                    .withDescription(
                            "Base URL of the JobManager's REST API for the hub (http://host:port); empty derives it"
                                    + " from the JobManager's Flink configuration.");

    public static final OptionRange<Duration> HUB_POLL_INTERVAL_RANGE =
            OptionRange.durations(Duration.ofSeconds(1), Duration.ofHours(1));

    public static final ConfigOption<Duration> HUB_POLL_INTERVAL =
            ConfigOptions.key("hub.poll-interval")
                    .durationType()
                    .defaultValue(Duration.ofSeconds(10))
                    .withDescription(
                            "How often the hub polls Flink's REST API ("
                                    + HUB_POLL_INTERVAL_RANGE
                                    + ").");

    /** Bounds of {@link #HUB_CLIENTS}: the hub scans each port of every entry every poll. */
    public static final int HUB_CLIENTS_MAX_ENTRIES = 16;

    public static final int HUB_CLIENTS_MAX_PORTS_PER_ENTRY = 32;

    public static final ConfigOption<String> HUB_CLIENTS =
            ConfigOptions.key("hub.clients")
                    .stringType()
                    .defaultValue("")
                    .withDescription(
                            "Insight endpoints of client processes (SQL Gateways running the interactive client)"
                                    + " whose figures the hub gathers every poll, as a comma-separated list of"
                                    + " host:port or host:first-last, e.g. gateway-1:9250-9260 (at most "
                                    + HUB_CLIENTS_MAX_ENTRIES
                                    + " entries of at most "
                                    + HUB_CLIENTS_MAX_PORTS_PER_ENTRY
                                    + " ports; a range is scanned for the plugin"
                                    + " whose role is client). They must be listed because the JobManager does not know its"
                                    + " clients: they call its REST API but never register with it. Empty gathers"
                                    + " none. Has no effect in other processes.");

    public static final OptionRange<Duration> SCRAPE_JOB_SERIES_MIN_AGE_RANGE =
            OptionRange.durations(Duration.ZERO, Duration.ofHours(1));

    public static final ConfigOption<Duration> SCRAPE_JOB_SERIES_MIN_AGE =
            ConfigOptions.key("scrape.job-series.min-age")
                    .durationType()
                    .defaultValue(Duration.ofSeconds(30))
                    .withDescription(
                            "How long a job must have been registered in this process (since its first metric"
                                    + " here) before /metrics shows its series: every metric whose labels carry a"
                                    + " job_id (job, task and operator metrics, on the JobManager and the"
                                    + " TaskManagers) ("
                                    + SCRAPE_JOB_SERIES_MIN_AGE_RANGE
                                    + "). A short query's job through the SQL Gateway lives a few hundred"
                                    + " milliseconds to seconds, and each scrape that catches one makes new series"
                                    + " in Prometheus: 30 s keeps such jobs out, while a streaming job's series show"
                                    + " after its first 30 s, at the usual scrape intervals of 15 s to 1 min one or"
                                    + " two scrapes later than with Flink's PrometheusReporter. A job once shown is"
                                    + " shown at once when its tasks are deployed here again (a failover). 0 shows"
                                    + " every job's series at once, as Flink's PrometheusReporter does."
                                    + " /api/v1/metrics and the history keep every series either way;"
                                    + " flink_insight_scrape_job_series_withheld counts the samples left out.");

    public static final ConfigOption<Boolean> FILTER_LABEL_VALUE_CHARACTERS =
            ConfigOptions.key("filterLabelValueCharacters")
                    .booleanType()
                    .defaultValue(true)
                    .withDescription(
                            "Same key and meaning as in Flink's PrometheusReporter: replace characters outside"
                                    + " [a-zA-Z0-9:_] in label values by '_'. When false, values are kept and"
                                    + " escaped.");

    public static final ConfigOption<String> ROLE =
            ConfigOptions.key("role")
                    .stringType()
                    .defaultValue("auto")
                    .withDescription(
                            "Role of this process: auto (detected from the metrics registered: jobmanager,"
                                    + " taskmanager, or client when the interactive client's insight_client metrics"
                                    + " appear), jobmanager, taskmanager or client. When auto, the system property"
                                    + " flink.insight.role is honoured, so a client process can declare itself.");

    public static final OptionRange<Integer> HTTP_MAX_REQUEST_HEADER_BYTES_RANGE =
            OptionRange.integers(1024, 65536);

    public static final ConfigOption<Integer> HTTP_MAX_REQUEST_HEADER_BYTES =
            ConfigOptions.key("http.max-request-header-bytes")
                    .intType()
                    .defaultValue(8192)
                    .withDescription(
                            "Largest request header block accepted ("
                                    + HTTP_MAX_REQUEST_HEADER_BYTES_RANGE
                                    + ");"
                                    + " larger requests get 431.");

    public static final OptionRange<Duration> HTTP_IDLE_TIMEOUT_RANGE =
            OptionRange.durations(Duration.ofSeconds(1), Duration.ofHours(1));

    public static final ConfigOption<Duration> HTTP_IDLE_TIMEOUT =
            ConfigOptions.key("http.idle-timeout")
                    .durationType()
                    .defaultValue(Duration.ofSeconds(60))
                    .withDescription(
                            "Connections idle this long are closed ("
                                    + HTTP_IDLE_TIMEOUT_RANGE
                                    + ").");

    public static final OptionRange<Integer> HTTP_MAX_CONNECTIONS_RANGE =
            OptionRange.integers(1, 10_000);

    public static final ConfigOption<Integer> HTTP_MAX_CONNECTIONS =
            ConfigOptions.key("http.max-connections")
                    .intType()
                    .defaultValue(128)
                    .withDescription(
                            "Most open HTTP connections ("
                                    + HTTP_MAX_CONNECTIONS_RANGE
                                    + "); further ones are closed"
                                    + " at once, so the server never takes the Flink process's file descriptors.");

    public static final OptionRange<Integer> HTTP_THREADS_RANGE = OptionRange.integers(1, 16);

    public static final ConfigOption<Integer> HTTP_THREADS =
            ConfigOptions.key("http.threads")
                    .intType()
                    .defaultValue(2)
                    .withDescription(
                            "Threads that render responses off the network thread ("
                                    + HTTP_THREADS_RANGE
                                    + ");"
                                    + " requests beyond what they and a short queue can take get 503.");

    public static final OptionRange<Integer> HTTP_MAX_CONCURRENT_SCRAPES_RANGE =
            OptionRange.integers(1, 16);

    public static final ConfigOption<Integer> HTTP_MAX_CONCURRENT_SCRAPES =
            ConfigOptions.key("http.max-concurrent-scrapes")
                    .intType()
                    .defaultValue(2)
                    .withDescription(
                            "Scrapes of /metrics rendered at once ("
                                    + HTTP_MAX_CONCURRENT_SCRAPES_RANGE
                                    + "); each renders its whole answer in heap, never in direct memory. Further"
                                    + " scrapes wait up to 2 s for a turn, then get 503 with Retry-After. A scrape"
                                    + " within 1 s of its format's last render shares that answer. Rendered answers"
                                    + " held for readers are at most twice this many per format: beyond, a new render"
                                    + " closes the connections still being written the oldest.");

    public static final OptionRange<MemorySize> HTTP_MAX_ANSWER_BYTES_RANGE =
            sizes("64 kb", "1 gb");

    public static final ConfigOption<MemorySize> HTTP_MAX_ANSWER_BYTES =
            ConfigOptions.key("http.max-answer-bytes")
                    .memoryType()
                    .defaultValue(MemorySize.ofMebiBytes(16))
                    .withDescription(
                            "Largest JSON answer of the API ("
                                    + HTTP_MAX_ANSWER_BYTES_RANGE
                                    + "): a larger one is"
                                    + " stopped while it is written and answered 413 naming the query parameters"
                                    + " that narrow it (such as from, step, limit, job or tasks=false). Answers"
                                    + " written to slow readers hold at most 4 times this in all; further large ones"
                                    + " get 503 with Retry-After.");

    public static final OptionRange<Integer> HTTP_MAX_CONNECTIONS_PER_ADDRESS_RANGE =
            OptionRange.integers(1, 10_000);

    public static final ConfigOption<Integer> HTTP_MAX_CONNECTIONS_PER_ADDRESS =
            ConfigOptions.key("http.max-connections-per-address")
                    .intType()
                    .defaultValue(32)
                    .withDescription(
                            "Most open HTTP connections from one client address ("
                                    + HTTP_MAX_CONNECTIONS_PER_ADDRESS_RANGE
                                    + "; an IPv6 client's /64 network counts"
                                    + " as one address); further ones are closed at once, so one client cannot hold"
                                    + " every connection and starve Prometheus.");

    public static final OptionRange<Duration> HTTP_REQUEST_HEAD_TIMEOUT_RANGE =
            OptionRange.durations(Duration.ofSeconds(1), Duration.ofMinutes(5));

    public static final ConfigOption<Duration> HTTP_REQUEST_HEAD_TIMEOUT =
            ConfigOptions.key("http.request-head-timeout")
                    .durationType()
                    .defaultValue(Duration.ofSeconds(10))
                    .withDescription(
                            "Time a client has to send a request's whole head (request line and headers), counted"
                                    + " from its first byte or from the connection's opening ("
                                    + HTTP_REQUEST_HEAD_TIMEOUT_RANGE
                                    + "); a client that trickles its headers is cut"
                                    + " off when it runs out.");

    public static final ConfigOption<Boolean> STATEMENTS_KEEP_LITERALS =
            ConfigOptions.key("statements.keep-literals")
                    .booleanType()
                    .defaultValue(false)
                    .withDescription(
                            "Whether the statements of the interactive client's queries keep their literals"
                                    + " (numbers, strings) as written, for queries whose client kept them"
                                    + " (execution.interactive.statements.keep-literals): both options are needed."
                                    + " Off by default, as literals may carry personal data: statements are then"
                                    + " stored and shown with each literal replaced by ?, whatever the client sent."
                                    + " When true, the gateway's query log (/api/v1/queries?after=&limit=) is no longer"
                                    + " open to everyone but follows http.access like the rest of the API, so a hub on"
                                    + " another host then reads it only if the gateway has http.access: open (the hub"
                                    + " sends no token); the hub keeps a gateway's literals only when its own option is"
                                    + " true too.");

    public static final ConfigOption<String> HTTP_ACCESS =
            ConfigOptions.key("http.access")
                    .stringType()
                    .defaultValue("loopback")
                    .withDescription(
                            "Who may use the panel, the JSON API and the dashboard proxy: loopback (the default:"
                                    + " only connections from the same host that name it localhost, 127.x, [::1] or a"
                                    + " name of http.allowed-hosts, e.g. kubectl port-forward, ssh -L or a local"
                                    + " reverse proxy; as far as Flink's shipped rest.bind-address: localhost lets"
                                    + " its own REST API reach; a local forwarder such as a service-mesh sidecar makes"
                                    + " every client it forwards local, so use token there), token (requests with"
                                    + " Authorization: Bearer <http.token>, or the cookie set by opening the panel"
                                    + " once with ?token=<http.token>) or open (whoever reaches the port, like"
                                    + " Flink's own dashboard on a network address). /metrics and /api/v1/metrics"
                                    + " (the same figures as JSON) answer everyone who reaches the port either way,"
                                    + " as Flink's PrometheusReporter does.");

    public static final ConfigOption<String> HTTP_TOKEN =
            ConfigOptions.key("http.token")
                    .stringType()
                    .defaultValue("")
                    .withDescription(
                            "The bearer token of http.access: token, at least 16 printable ASCII characters"
                                    + " without spaces, '\"', ',', ';' or '\\' (so a cookie can carry it). Flink"
                                    + " hides values of keys containing 'token' in its REST API and logs.");

    public static final ConfigOption<String> HTTP_ALLOWED_ORIGINS =
            ConfigOptions.key("http.allowed-origins")
                    .stringType()
                    .defaultValue("")
                    .withDescription(
                            "Web origins (scheme://host[:port], comma-separated) whose pages may read the port's"
                                    + " answers from a browser: they get Access-Control-Allow-Origin, and their"
                                    + " cross-site requests are not refused. Empty allows none, unlike Flink's"
                                    + " web.access-control-allow-origin, whose default * lets every page read"
                                    + " Flink's REST API; this option does not read or change that one.");

    public static final ConfigOption<String> HTTP_ALLOWED_HOSTS =
            ConfigOptions.key("http.allowed-hosts")
                    .stringType()
                    .defaultValue("")
                    .withDescription(
                            "Host names (comma-separated, e.g. flink.example.com) under which the panel, the JSON"
                                    + " API and the dashboard proxy may be asked for, besides IP addresses, localhost,"
                                    + " this host's own name and Flink's rest.address, which are always accepted:"
                                    + " the name a browser or reverse proxy sends in Host. Any other name is refused"
                                    + " with 421, against DNS rebinding. In loopback mode a listed name is accepted"
                                    + " from loopback connections too.");

    public static final ConfigOption<Boolean> HTTP_SSL_ENABLED =
            ConfigOptions.key("http.ssl.enabled")
                    .booleanType()
                    .defaultValue(false)
                    .withDescription(
                            "Whether the port serves HTTPS with Flink's REST key and trust stores"
                                    + " (security.ssl.rest.*, which must be enabled), asking clients for a certificate"
                                    + " when security.ssl.rest.authentication-enabled is true; the hub then gathers"
                                    + " hub.clients over HTTPS too. Off by default: /metrics stays plain HTTP, as"
                                    + " Flink's PrometheusReporter serves it, so scrape configurations keep working."
                                    + " The hub and the dashboard proxy use Flink's REST TLS either way.");

    public static final ConfigOption<Boolean> HUB_DASHBOARD_PROXY_ENABLED =
            ConfigOptions.key("hub.dashboard-proxy.enabled")
                    .booleanType()
                    .defaultValue(true)
                    .withDescription(
                            "Whether the hub serves Flink's dashboard under /flink/, read-only: only the GET routes"
                                    + " on the README's allowlist reach Flink. Has no effect in other processes.");

    private InsightOptions() {}

    /**
     * Sizes from {@code min} to {@code max}, written as Flink writes a {@link MemorySize} ("64
     * mb").
     */
    private static OptionRange<MemorySize> sizes(String min, String max) {
        return OptionRange.of(
                "a size", MemorySize::toString, MemorySize.parse(min), MemorySize.parse(max));
    }

    /** Every option, in the order of the README's option table. */
    public static List<ConfigOption<?>> all() {
        return List.of(
                PORT,
                BIND_HOST,
                HISTORY_RETENTION,
                HISTORY_RESOLUTION,
                HISTORY_MAX_SERIES,
                HISTORY_ON_TASKMANAGERS,
                CHECKPOINTS_MAX_PER_JOB,
                CHECKPOINTS_MAX_BYTES,
                JOBS_MAX,
                STORES_MAX_BYTES,
                STORES_DIR,
                STORES_DIR_MAX_BYTES,
                STORES_DIR_RETENTION,
                STORES_DIR_WRITE_INTERVAL,
                STORES_DIR_MAX_BYTES_PER_MINUTE,
                STATEMENTS_KEEP_LITERALS,
                HUB_ENABLED,
                HUB_FLINK_REST_URL,
                HUB_POLL_INTERVAL,
                HUB_CLIENTS,
                HUB_DASHBOARD_PROXY_ENABLED,
                SCRAPE_JOB_SERIES_MIN_AGE,
                FILTER_LABEL_VALUE_CHARACTERS,
                ROLE,
                HTTP_MAX_REQUEST_HEADER_BYTES,
                HTTP_IDLE_TIMEOUT,
                HTTP_MAX_CONNECTIONS,
                HTTP_THREADS,
                HTTP_MAX_CONNECTIONS_PER_ADDRESS,
                HTTP_MAX_CONCURRENT_SCRAPES,
                HTTP_MAX_ANSWER_BYTES,
                HTTP_REQUEST_HEAD_TIMEOUT,
                HTTP_ACCESS,
                HTTP_TOKEN,
                HTTP_ALLOWED_ORIGINS,
                HTTP_ALLOWED_HOSTS,
                HTTP_SSL_ENABLED);
    }
}
