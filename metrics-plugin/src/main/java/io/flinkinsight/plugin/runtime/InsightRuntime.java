package io.flinkinsight.plugin.runtime;

import io.flinkinsight.plugin.FlinkBoundary;
import io.flinkinsight.plugin.FlinkCapabilities;
import io.flinkinsight.plugin.InsightOptions;
import io.flinkinsight.plugin.ProcessRole;
import io.flinkinsight.plugin.api.CheckpointsEndpoint;
import io.flinkinsight.plugin.api.ClientEndpoint;
import io.flinkinsight.plugin.api.CompareEndpoint;
import io.flinkinsight.plugin.api.JobsEndpoint;
import io.flinkinsight.plugin.api.MetricsJson;
import io.flinkinsight.plugin.api.OverviewEndpoint;
import io.flinkinsight.plugin.api.SeriesEndpoint;
import io.flinkinsight.plugin.api.SeriesNamesEndpoint;
import io.flinkinsight.plugin.exposition.ExpositionWriter;
import io.flinkinsight.plugin.exposition.OwnFigure;
import io.flinkinsight.plugin.http.HttpServerSettings;
import io.flinkinsight.plugin.http.InsightHttpServer;
import io.flinkinsight.plugin.http.JsonEndpoint;
import io.flinkinsight.plugin.http.PortAccess;
import io.flinkinsight.plugin.http.RefusalReason;
import io.flinkinsight.plugin.http.RestTls;
import io.flinkinsight.plugin.http.ScrapeFigures;
import io.flinkinsight.plugin.hub.Hub;
import io.flinkinsight.plugin.hub.HubSettings;
import io.flinkinsight.plugin.index.MetricFamily;
import io.flinkinsight.plugin.index.MetricIndex;
import io.flinkinsight.plugin.index.MetricKind;
import io.flinkinsight.plugin.index.RegisteredMetric;
import io.flinkinsight.plugin.proxy.DashboardUpstream;
import io.flinkinsight.plugin.proxy.FlinkDashboardProxy;
import io.flinkinsight.plugin.store.InsightStores;
import io.flinkinsight.plugin.store.SeriesStore;
import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.traces.Span;
import org.apache.flink.configuration.GlobalConfiguration;
import org.apache.flink.events.Event;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.net.ssl.SSLContext;
import java.time.Clock;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * Everything the plugin runs in one process: the metric index, the stores, the HTTP server and the sampler thread.
 * Shared by the metric, trace and event reporters through {@link SharedRuntime}. Callbacks from Flink
 * ({@link #metricAdded}, {@link #onSpan}, ...) are cheap; {@link InsightReporterBase} guards them with a
 * {@link FlinkBoundary}, as this class guards the sampler thread's rounds.
 */
public final class InsightRuntime implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(InsightRuntime.class);
    /** Where the hub serves Flink's own dashboard, with the Insight tab, through its read-only proxy. */
    public static final String DASHBOARD_PATH = "/flink/";

    private final InsightConfiguration config;
    private final Clock clock;
    private final FlinkCapabilities flink;
    private final long startedAtMillis;
    private final MetricIndex index;
    private final InsightStores stores;
    private final LongAdder scrapeErrors = new LongAdder();
    private final ExpositionWriter writer;
    private final MetricSampler sampler;
    private final FlinkBoundary samplerRounds;
    private final ProcessRole declaredRole;
    private volatile ProcessRole role;
    /** Set once at start; read by the HTTP workers (own figures), hence volatile. */
    private volatile InsightHttpServer server;
    private ScheduledExecutorService samplerThread;
    private final Object flinkConfigurationLock = new Object();
    private Map<String, String> flinkConfiguration; // guarded by flinkConfigurationLock
    private Hub hub;
    private boolean closed;

    InsightRuntime(InsightConfiguration config, Clock clock) {
        this.config = config;
        this.clock = clock;
        this.flink = FlinkCapabilities.current();
        this.startedAtMillis = clock.millis();
        this.index = new MetricIndex(config.filterLabelValueCharacters());
        this.stores = new InsightStores(config.storeSettings(), clock, flink);
        this.writer = new ExpositionWriter(scrapeErrors, this::ownFigures);
        this.sampler = new MetricSampler(index, stores.series()::record, clock, config.historyResolution().toMillis());
        this.samplerRounds = new FlinkBoundary(LOG, clock);
        this.declaredRole = ProcessRole.declared(config.role());
    }

    /** Starts the sampler and the HTTP server; a server that cannot bind is logged and left out. */
    public static InsightRuntime start(InsightConfiguration config, Clock clock) {
        InsightRuntime runtime = new InsightRuntime(config, clock);
        if (runtime.declaredRole != null) {
            runtime.setRole(runtime.declaredRole);
        }
        runtime.startSampler();
        runtime.startServer();
        runtime.logCapabilities();
        return runtime;
    }

    /** One line on what this Flink does not report by itself, so an empty figure has its reason in the log. */
    private void logCapabilities() {
        StringBuilder missing = new StringBuilder();
        for (FlinkCapabilities.Capability c : flink.list()) {
            if (!c.available()) {
                missing.append(missing.length() == 0 ? "" : "; ").append(c.name()).append(" (Flink ")
                        .append(c.since()).append("+): ").append(c.whenMissing());
            }
        }
        if (missing.length() > 0) {
            LOG.info("Flink Insight on Flink {} (Java {}) lacks: {}", flink.flinkVersion(),
                    Runtime.version().feature(), missing);
        }
    }

    private void startSampler() {
        ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "flink-insight-sampler");
            t.setDaemon(true);
            return t;
        });
        executor.setRemoveOnCancelPolicy(true);
        long resolution = config.historyResolution().toMillis();
        // Start at the next multiple of the resolution so all processes sample at the same instants.
        long delay = resolution - Math.floorMod(clock.millis(), resolution);
        executor.scheduleAtFixedRate(this::sampleRound, delay, resolution, TimeUnit.MILLISECONDS);
        samplerThread = executor;
    }

    /**
     * One round of the sampler thread: the history's samples, then the stores brought within their budget, each
     * guarded on its own so that a failed sampling never skips the budget.
     */
    private void sampleRound() {
        if (keepsHistory()) {
            samplerRounds.runScheduled("a sampling round", sampler::run);
        }
        samplerRounds.runScheduled("a pass keeping the stores within their budget", stores::keepWithinBudget);
    }

    /**
     * Whether this process samples its metrics into its history: the hub and clients do; TaskManagers only when
     * asked, since the hub reads their metrics through Flink's REST API.
     */
    public boolean keepsHistory() {
        return config.historyOnTaskManagers() || !ProcessRole.TASKMANAGER.equals(role);
    }

    /**
     * Flink's configuration as {@code FLINK_CONF_DIR} gives it, read once for the port and the hub (each read logs
     * every property again). Throws when it cannot be read; the next call tries again.
     */
    private Map<String, String> flinkConfiguration() {
        synchronized (flinkConfigurationLock) {
            if (flinkConfiguration == null) {
                flinkConfiguration = GlobalConfiguration.loadConfiguration().toMap();
            }
            return flinkConfiguration;
        }
    }

    private void startServer() {
        Map<String, String> flinkConfiguration;
        try {
            flinkConfiguration = flinkConfiguration();
        } catch (RuntimeException e) {
            LOG.debug("Flink Insight: Flink's configuration could not be read", e);
            flinkConfiguration = Map.of();
        }
        RestTls tls = null;
        if (config.httpSsl()) {
            tls = serverTls(flinkConfiguration);
            if (tls == null) {
                return; // logged: never plain HTTP when HTTPS was asked for
            }
        }
        PortAccess access = config.access().withOwnHostNames(HostNames.own(flinkConfiguration));
        if (tls == null && RestTls.mutualRequested(flinkConfiguration)) {
            // Flink's REST API answers only clients with its certificate: the panel, the API and the proxy (which
            // present that certificate to Flink) must not answer anyone without it.
            access = access.onlyScrape("Flink's REST API asks its clients for a certificate"
                    + " (security.ssl.rest.authentication-enabled), so this port serves the panel, its API and"
                    + " Flink's dashboard only over HTTPS to the same clients: set"
                    + " metrics.reporter.insight.http.ssl.enabled: true; /metrics is open");
            LOG.info("Flink Insight: Flink's REST API uses mutual TLS and {}http.ssl.enabled is off, so this port"
                    + " serves /metrics only", InsightOptions.USER_PREFIX);
        }
        if (access.isLoopback()) {
            String sidecar = HostNames.meshSidecar();
            if (sidecar != null) {
                LOG.warn("Flink Insight: a service-mesh sidecar runs beside this process ({}): it forwards remote"
                        + " clients from loopback, so http.access: loopback (the default) serves the panel, its API"
                        + " and Flink's dashboard to every client the mesh lets reach this port; set"
                        + " metrics.reporter.insight.http.access: token there", sidecar);
            }
        }
        HttpServerSettings settings = new HttpServerSettings(
                config.ports(), config.bindHost(), config.maxRequestHeaderBytes(), config.idleTimeout(),
                config.maxConnections(), config.httpThreads(), config.maxConnectionsPerAddress(),
                config.requestHeadTimeout(), access, config.maxConcurrentScrapes(),
                config.maxAnswerBytes(), tls);
        InsightHttpServer s = new InsightHttpServer(
                settings, (format, out) -> writer.write(index.families(), format, out), endpoints(),
                new FlinkDashboardProxy(dashboard(), config.dashboardProxy()));
        if (s.start() != null) {
            server = s;
        }
    }

    /** Flink's REST TLS for the port (http.ssl.enabled), or null when it cannot serve HTTPS (logged). */
    private static RestTls serverTls(Map<String, String> flinkConfiguration) {
        String key = InsightOptions.USER_PREFIX + InsightOptions.HTTP_SSL_ENABLED.key();
        try {
            RestTls tls = RestTls.from(flinkConfiguration);
            if (tls != null && tls.server() != null) {
                return tls;
            }
            LOG.error("Flink Insight HTTP server not started: {} is true, but Flink's REST TLS is off or has no key"
                    + " (security.ssl.rest.enabled, security.ssl.rest.keystore); Flink carries on without the port",
                    key);
        } catch (IllegalArgumentException e) {
            LOG.error("Flink Insight HTTP server not started: {} is true, but {}; Flink carries on without the port",
                    key, e.getMessage());
        }
        return null;
    }

    /** The JSON endpoints, keyed by path. */
    Map<String, JsonEndpoint> endpoints() {
        Map<String, JsonEndpoint> all = new LinkedHashMap<>();
        all.put(OverviewEndpoint.PATH, new OverviewEndpoint(this::overviewFacts));
        all.put("/api/v1/metrics", JsonEndpoint.narrowedBy(query -> MetricsJson.read(
                index.families(),
                query.get("prefix").orElse(""),
                query.get("contains").orElse(""),
                (int) query.getLong("limit", 1000, 1, 100_000),
                scrapeErrors), "prefix", "contains", "limit (fewer metrics)"));
        all.put(SeriesEndpoint.PATH, new SeriesEndpoint(stores.series()));
        all.put(SeriesNamesEndpoint.PATH, new SeriesNamesEndpoint(stores.series()));
        all.put(CheckpointsEndpoint.PATH, new CheckpointsEndpoint(stores.checkpoints(), stores.jobs(), clock));
        all.put(JobsEndpoint.PATH, new JobsEndpoint(stores.jobs(), stores.checkpoints()));
        all.put(CompareEndpoint.PATH,
                new CompareEndpoint(stores.checkpoints(), stores.jobs(), stores.series(), clock));
        all.put(ClientEndpoint.PATH, new ClientEndpoint(stores.series(),
                ClientEndpoint.freshness(config.historyResolution(), config.hubPollInterval())));
        return all;
    }

    /** Flink's dashboard for the proxy under {@value #DASHBOARD_PATH}: there while this process runs the hub. */
    private DashboardUpstream dashboard() {
        return new DashboardUpstream() {
            @Override
            public boolean available() {
                return hubRunning();
            }

            @Override
            public String baseUrl() {
                return flinkWebUrl();
            }

            @Override
            public String shownUrl() {
                return OverviewEndpoint.withoutUserInfo(flinkWebUrl());
            }

            @Override
            public SSLContext tls() {
                Hub h;
                synchronized (InsightRuntime.this) {
                    h = hub;
                }
                return h == null ? null : h.restTlsClient();
            }
        };
    }

    /** The answer of {@code GET /api/v1/overview}. */
    public Map<String, Object> overview() {
        return OverviewEndpoint.answer(overviewFacts());
    }

    private OverviewEndpoint.Facts overviewFacts() {
        long series = 0;
        for (MetricFamily family : index.families()) {
            int perMember = family.kind() == MetricKind.HISTOGRAM
                    ? ExpositionWriter.QUANTILE_COUNT + 2
                    : 1;
            series += (long) perMember * family.members().length;
        }
        boolean hub = hubRunning();
        return new OverviewEndpoint.Facts(
                role == null ? null : role.lowerCaseName(),
                flink.flinkVersion(),
                flink.list(),
                VersionInfo.insightVersion(),
                startedAtMillis,
                clock.millis() - startedAtMillis,
                index.metricCount(),
                series,
                index.rejectedCount(),
                scrapeErrors.sum(),
                sampler.errorCount(),
                ownFigures(),
                keepsHistory(),
                port(),
                config.historyResolution().toMillis(),
                config.historyRetention().toMillis(),
                hub ? OverviewEndpoint.withoutUserInfo(flinkWebUrl()) : null,
                hub && config.dashboardProxy() ? DASHBOARD_PATH : null);
    }

    /** What the plugin holds, drops and refuses: on {@code /metrics} and in the overview, for operators to alert on. */
    List<OwnFigure> ownFigures() {
        List<OwnFigure> figures = new ArrayList<>(storeAndScrapeFigures());
        InsightHttpServer s = server;
        Map<RefusalReason, Long> refusals = s == null ? new EnumMap<>(RefusalReason.class) : s.refusals();
        for (RefusalReason reason : RefusalReason.values()) {
            figures.add(new OwnFigure("flink_insight_requests_refused_total",
                    "Requests this process's HTTP server did not serve (and connections it closed at once), by"
                            + " reason; Flink's own answers through the dashboard proxy are not counted.",
                    true, refusals.getOrDefault(reason, 0L), Map.of("reason", reason.label())));
        }
        Hub h;
        synchronized (this) {
            h = hub;
        }
        if (h != null) {
            h.clientRefusals().forEach((reason, count) -> figures.add(new OwnFigure(
                    "flink_insight_hub_client_refused_total",
                    "Parts of client processes' answers (hub.clients) the hub did not record, by reason: answers"
                            + " over 128 KiB, ports beyond a round's 8 MiB, figures with too many or too long"
                            + " labels, series beyond a client's bound.", true, count, Map.of("reason", reason))));
        }
        return figures;
    }

    private List<OwnFigure> storeAndScrapeFigures() {
        SeriesStore history = stores.series();
        InsightHttpServer s = server;
        ScrapeFigures scrapes = s == null ? null : s.scrapeFigures();
        return List.of(
                new OwnFigure("flink_insight_stores_bytes",
                        "Estimated heap bytes the stores hold together (history, checkpoints, jobs).", false,
                        stores.estimatedBytes()),
                new OwnFigure("flink_insight_stores_max_bytes",
                        "The stores' budget of estimated heap bytes (stores.max-bytes).", false, stores.maxBytes()),
                new OwnFigure("flink_insight_history_series", "Series in this process's metric history.", false,
                        history.seriesCount()),
                new OwnFigure("flink_insight_history_bytes",
                        "Estimated heap bytes the metric history holds (samples and keys).", false,
                        history.estimatedBytes()),
                new OwnFigure("flink_insight_history_series_evicted_total",
                        "Series removed from the history before their retention ended: written longest ago, to make"
                                + " room under history.max-series or stores.max-bytes.", true,
                        history.evictedSeries()),
                new OwnFigure("flink_insight_history_samples_dropped_total",
                        "Samples not kept: the history was full of series all written in the last resolution.",
                        true, history.droppedForSeriesLimit()),
                new OwnFigure("flink_insight_checkpoints_bytes",
                        "Estimated heap bytes the remembered checkpoints hold (checkpoints.max-bytes).", false,
                        stores.checkpoints().estimatedBytes()),
                new OwnFigure("flink_insight_checkpoints_evicted_total",
                        "Checkpoints dropped to keep within checkpoints.max-per-job, jobs.max, checkpoints.max-bytes"
                                + " and stores.max-bytes.", true, stores.checkpoints().evicted()),
                new OwnFigure("flink_insight_jobs_bytes", "Estimated heap bytes the remembered jobs hold.", false,
                        stores.jobs().estimatedBytes()),
                new OwnFigure("flink_insight_jobs_evicted_total",
                        "Jobs forgotten to keep within jobs.max and stores.max-bytes.", true, stores.jobs().evicted()),
                new OwnFigure("flink_insight_scrapes_total", "Scrapes of /metrics rendered by this process.", true,
                        scrapes == null ? 0 : scrapes.served()),
                new OwnFigure("flink_insight_scrape_render_seconds_total",
                        "Time spent rendering /metrics bodies; over flink_insight_scrapes_total, the mean render time.",
                        true, scrapes == null ? 0 : scrapes.renderSeconds()),
                new OwnFigure("flink_insight_scrape_bytes_total",
                        "Bytes of the /metrics bodies rendered; over flink_insight_scrapes_total, the mean body size.",
                        true, scrapes == null ? 0 : scrapes.bytes()),
                new OwnFigure("flink_insight_scrapes_waiting",
                        "Scrapes waiting for a render turn under http.max-concurrent-scrapes right now.", false,
                        scrapes == null ? 0 : scrapes.waiting()),
                new OwnFigure("flink_insight_scrapes_refused_total",
                        "Scrapes answered 503 because http.max-concurrent-scrapes were already under way.", true,
                        scrapes == null ? 0 : scrapes.refusedCount()),
                new OwnFigure("flink_insight_scrapes_shared_total",
                        "Scrapes of /metrics answered with the body of a render less than a second old, without a"
                                + " render of their own.", true, scrapes == null ? 0 : scrapes.sharedCount()),
                new OwnFigure("flink_insight_scrape_writes_aborted_total",
                        "Scrape answers whose connection was closed before they were written, to free their body"
                                + " for a newer render when the bodies of its format held for readers were at their"
                                + " bound (2 x http.max-concurrent-scrapes, at least 4).", true, scrapes == null ? 0 : scrapes.writesAborted()),
                new OwnFigure("flink_insight_internal_failures_total",
                        "Calls from Flink and runs of the plugin's own threads that failed inside the plugin and"
                                + " were logged (each kind at most once a minute, JVM errors every time).", true,
                        FlinkBoundary.failuresInProcess()));
    }

    /** Flink registered a metric (under its registry lock). */
    public void metricAdded(Metric metric, String metricName, MetricGroup group) {
        RegisteredMetric m = index.add(metric, metricName, group);
        if (m != null && declaredRole == null && !ProcessRole.JOBMANAGER.equals(role)) {
            ProcessRole detected = ProcessRole.fromLogicalScope(m.family().logicalScope());
            // JobManager wins over TaskManager and client: a MiniCluster runs several, and the hub belongs to the
            // JobManager.
            if (detected != null && (role == null || detected.equals(ProcessRole.JOBMANAGER))) {
                setRole(detected);
            }
        }
    }

    /** Flink unregistered a metric (under its registry lock). */
    public void metricRemoved(Metric metric, String metricName, MetricGroup group) {
        index.remove(metric, metricName, group);
    }

    /** Flink reported a span (under its registry lock). */
    public void onSpan(Span span) {
        stores.onSpan(span);
    }

    /** Flink reported an event (under its registry lock). */
    public void onEvent(Event event) {
        stores.onEvent(event);
    }

    /** The role is known: a JobManager starts the hub (once, unless turned off or closed). */
    void setRole(ProcessRole newRole) {
        role = newRole;
        try {
            synchronized (this) {
                HubSettings settings = config.hubSettings();
                if (ProcessRole.JOBMANAGER.equals(newRole) && settings.enabled() && hub == null && !closed) {
                    hub = Hub.start(settings, stores, flink, clock, this::flinkConfiguration);
                }
            }
        } catch (RuntimeException | LinkageError e) {
            // The hub is optional: without it this process still reports (and the reporter still opens).
            LOG.warn("Flink Insight: the hub could not start", e);
        }
    }

    /** Whether this process runs the hub (a JobManager with the hub enabled). */
    public synchronized boolean hubRunning() {
        return hub != null;
    }

    /** Flink's REST base URL as the hub resolved it, or null when this process runs no hub (or it is unresolved). */
    public String flinkWebUrl() {
        Hub h;
        synchronized (this) {
            h = hub;
        }
        return h == null ? null : h.flinkRestUrl();
    }

    public InsightConfiguration config() {
        return config;
    }

    public MetricIndex index() {
        return index;
    }

    public InsightStores stores() {
        return stores;
    }

    /** The role known so far (jobmanager, taskmanager, client), or null. */
    public ProcessRole role() {
        return role;
    }

    /** The HTTP port, or -1 when the server is not running. */
    public int port() {
        InsightHttpServer s = server;
        return s == null ? -1 : s.port();
    }

    /**
     * A sample in progress finishes within milliseconds; waiting for it means no thread of the plugin's class loader
     * outlives close (a restart in the same JVM would otherwise find two samplers).
     */
    private void awaitSamplerExit() {
        try {
            if (!samplerThread.awaitTermination(2, TimeUnit.SECONDS)) {
                LOG.warn("Flink Insight: the sampler did not stop within 2 s; leaving it as a daemon thread");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Stops the sampler, the server (its port is free on return) and the hub. */
    @Override
    public void close() {
        if (samplerThread != null) {
            samplerThread.shutdownNow();
            awaitSamplerExit();
        }
        if (server != null) {
            server.close();
        }
        Hub toClose;
        synchronized (this) {
            closed = true;
            toClose = hub;
            hub = null;
        }
        if (toClose != null) {
            toClose.close();
        }
    }
}
