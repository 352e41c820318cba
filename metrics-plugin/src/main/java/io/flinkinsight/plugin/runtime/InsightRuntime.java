package io.flinkinsight.plugin.runtime;

import io.flinkinsight.common.FlinkBoundary;
import io.flinkinsight.plugin.FlinkCapabilities;
import io.flinkinsight.plugin.ProcessRole;
import io.flinkinsight.plugin.api.ApiEndpoints;
import io.flinkinsight.plugin.api.OverviewEndpoint;
import io.flinkinsight.plugin.durable.DurableStores;
import io.flinkinsight.plugin.exposition.ExpositionWriter;
import io.flinkinsight.plugin.http.HttpServerSettings;
import io.flinkinsight.plugin.http.InsightHttpServer;
import io.flinkinsight.plugin.http.JsonEndpoint;
import io.flinkinsight.plugin.http.RequestFailureLog;
import io.flinkinsight.plugin.hub.Hub;
import io.flinkinsight.plugin.hub.HubLeadershipListener;
import io.flinkinsight.plugin.hub.Leadership;
import io.flinkinsight.plugin.index.JobSeriesRule;
import io.flinkinsight.plugin.index.MetricIndex;
import io.flinkinsight.plugin.index.RegisteredMetric;
import io.flinkinsight.plugin.proxy.DashboardUpstream;
import io.flinkinsight.plugin.proxy.FlinkDashboardProxy;
import io.flinkinsight.plugin.scrape.ScrapeHandler;
import io.flinkinsight.plugin.selfmetrics.HubFigures;
import io.flinkinsight.plugin.selfmetrics.SelfMetrics;
import io.flinkinsight.plugin.serve.RequestRouter;
import io.flinkinsight.plugin.serve.StaticFiles;
import io.flinkinsight.plugin.store.InsightStores;

import org.apache.flink.annotation.VisibleForTesting;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.GlobalConfiguration;
import org.apache.flink.events.Event;
import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.traces.Span;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.net.ssl.SSLContext;

import java.time.Clock;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * Everything the plugin runs in one process: the metric index, the stores, the HTTP server and the
 * sampler thread. Shared by the metric, trace and event reporters through {@link SharedRuntime}.
 * Callbacks from Flink ({@link #metricAdded}, {@link #onSpan}, ...) are cheap; {@link
 * InsightReporterBase} guards them with a {@link FlinkBoundary}, as {@link SamplerThread} guards
 * its rounds.
 */
public final class InsightRuntime implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(InsightRuntime.class);

    /**
     * Where the hub serves Flink's own dashboard, with the Insight tab, through its read-only
     * proxy.
     */
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
    private final RoleTracker roles;

    /** Whether this JobManager leads: fed by the metric callbacks, read by the hub. */
    private final Leadership leadership = new Leadership();

    private final SelfMetrics selfMetrics;

    /** Set once at start; read by the HTTP workers (own figures), hence volatile. */
    private volatile InsightHttpServer server;

    /** The running server's scrape, for its figures; set with the server. */
    private volatile ScrapeHandler scrape;

    private SamplerThread samplerThread;
    private final Object flinkConfigurationLock = new Object();
    private Map<String, String> flinkConfiguration; // guarded by flinkConfigurationLock

    InsightRuntime(InsightConfiguration config, Clock clock) {
        this.config = config;
        this.clock = clock;
        this.flink = FlinkCapabilities.current();
        this.startedAtMillis = clock.millis();
        // One rule, one clock: the index dates each job's first metric, the writer compares.
        JobSeriesRule jobSeries = new JobSeriesRule(config.jobSeriesMinAge(), System::nanoTime);
        this.index = new MetricIndex(config.filterLabelValueCharacters(), jobSeries);
        this.stores = new InsightStores(config.storeSettings(), clock, flink);
        this.roles =
                new RoleTracker(
                        ProcessRole.declared(config.role()),
                        config.hubSettings().enabled(),
                        () ->
                                Hub.start(
                                        config.hubSettings(),
                                        stores,
                                        flink,
                                        clock,
                                        this::flinkConfiguration,
                                        leadership,
                                        leadershipListener()));
        this.selfMetrics =
                new SelfMetrics(
                        stores,
                        () -> {
                            ScrapeHandler h = scrape;
                            return h == null ? null : h.figures();
                        },
                        () -> {
                            InsightHttpServer s = server;
                            return s == null ? null : s.refusals();
                        },
                        () -> {
                            Hub h = roles.hub();
                            return h == null
                                    ? null
                                    : new HubFigures(
                                            h.leading(),
                                            h.restRequests(),
                                            h.clientRequests(),
                                            h.clientRefusals());
                        },
                        this::storesDirStatus);
        this.writer = new ExpositionWriter(scrapeErrors, selfMetrics::figures, jobSeries);
        this.sampler =
                new MetricSampler(
                        index,
                        stores.series()::record,
                        clock,
                        config.historyResolution().toMillis());
    }

    /**
     * What the hub does, besides polling, when this JobManager gains or loses the leadership of its
     * cluster: called on the hub's thread, before its first round as leader and before the first
     * round it skips (see {@link HubLeadershipListener}). The place for stores that outlive a
     * leader: restore the previous leader's history on gain, stop writing on loss.
     */
    private HubLeadershipListener leadershipListener() {
        return HubLeadershipListener.NONE;
    }

    /** Starts the sampler and the HTTP server; a server that cannot bind is logged and left out. */
    public static InsightRuntime start(InsightConfiguration config, Clock clock) {
        InsightRuntime runtime = new InsightRuntime(config, clock);
        runtime.roles.start();
        runtime.samplerThread =
                new SamplerThread(
                        runtime.sampler::run,
                        runtime.stores::keepWithinBudget,
                        runtime::keepsHistory,
                        clock,
                        config.historyResolution().toMillis());
        runtime.startServer();
        runtime.logCapabilities();
        return runtime;
    }

    /**
     * One line on what this Flink does not report by itself, so an empty figure has its reason in
     * the log.
     */
    private void logCapabilities() {
        StringBuilder missing = new StringBuilder();
        for (FlinkCapabilities.Capability c : flink.list()) {
            if (!c.available()) {
                missing.append(missing.length() == 0 ? "" : "; ")
                        .append(c.name())
                        .append(" (Flink ")
                        .append(c.since())
                        .append("+): ")
                        .append(c.whenMissing());
            }
        }
        if (missing.length() > 0) {
            LOG.info(
                    "Flink Insight on Flink {} (Java {}) lacks: {}",
                    flink.flinkVersion(),
                    Runtime.version().feature(),
                    missing);
        }
    }

    /**
     * Whether this process samples its metrics into its history: the hub and clients do;
     * TaskManagers only when asked, since the hub reads their metrics through Flink's REST API.
     */
    public boolean keepsHistory() {
        return config.historyOnTaskManagers() || !ProcessRole.TASKMANAGER.equals(roles.role());
    }

    /**
     * Flink's configuration as {@code FLINK_CONF_DIR} gives it, read once for the port and the hub
     * (each read logs every property again). Throws when it cannot be read; the next call tries
     * again.
     */
    private Map<String, String> flinkConfiguration() {
        synchronized (flinkConfigurationLock) {
            if (flinkConfiguration == null) {
                // the file, then the process's -D key=value, as Flink itself reads them
                flinkConfiguration =
                        GlobalConfiguration.loadConfiguration(
                                        Configuration.fromMap(DynamicProperties.ofThisProcess()))
                                .toMap();
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
        HttpServerSettings settings = PortSettings.of(config, flinkConfiguration);
        if (settings == null) {
            return; // logged: never plain HTTP when HTTPS was asked for
        }
        RequestFailureLog failures = new RequestFailureLog();
        ScrapeHandler scrapeHandler =
                new ScrapeHandler(
                        (format, out) -> writer.write(index.families(), format, out),
                        config.maxConcurrentScrapes(),
                        System::nanoTime,
                        failures);
        ClassLoader jar = InsightRuntime.class.getClassLoader();
        RequestRouter router =
                new RequestRouter(
                        scrapeHandler,
                        endpoints(),
                        new StaticFiles(jar),
                        new StaticFiles(jar, StaticFiles.TAB_ROOT),
                        new FlinkDashboardProxy(dashboard(), config.dashboardProxy()),
                        config.maxAnswerBytes(),
                        failures);
        InsightHttpServer s = new InsightHttpServer(settings, router);
        if (s.start() != null) {
            scrape = scrapeHandler;
            server = s;
        } else {
            router.close(); // the proxy's threads and nothing else: the server never served
        }
    }

    /** The JSON endpoints, keyed by path. */
    Map<String, JsonEndpoint> endpoints() {
        return ApiEndpoints.of(
                this::overviewFacts,
                index,
                scrapeErrors,
                stores,
                clock,
                config.historyResolution(),
                config.hubPollInterval());
    }

    /**
     * Flink's dashboard for the proxy under {@value #DASHBOARD_PATH}: there while this process runs
     * the hub.
     */
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
                Hub h = roles.hub();
                return h == null ? null : h.restTlsClient();
            }
        };
    }

    /** The answer of {@code GET /api/v1/overview}. */
    @VisibleForTesting
    public Map<String, Object> overview() {
        return OverviewEndpoint.answer(overviewFacts());
    }

    private OverviewEndpoint.Facts overviewFacts() {
        boolean hub = hubRunning();
        ProcessRole role = roles.role();
        return new OverviewEndpoint.Facts(
                role == null ? null : role.lowerCaseName(),
                flink.flinkVersion(),
                flink.list(),
                VersionInfo.insightVersion(),
                startedAtMillis,
                clock.millis() - startedAtMillis,
                index.metricCount(),
                ExpositionWriter.seriesCount(index.families()),
                index.rejectedCount(),
                scrapeErrors.sum(),
                sampler.errorCount(),
                selfMetrics.figures(),
                keepsHistory(),
                port(),
                config.historyResolution().toMillis(),
                config.historyRetention().toMillis(),
                hub ? OverviewEndpoint.withoutUserInfo(flinkWebUrl()) : null,
                hub && config.dashboardProxy() ? DASHBOARD_PATH : null,
                hubFacts(),
                storesDirStatus());
    }

    /** The hub's leadership for the overview, or null when this process runs no hub. */
    private OverviewEndpoint.HubFacts hubFacts() {
        Hub h = roles.hub();
        if (h == null) {
            return null;
        }
        return new OverviewEndpoint.HubFacts(
                h.leading(), OverviewEndpoint.withoutUserInfo(h.leaderRestUrl()));
    }

    /** Flink registered a metric (under its registry lock). */
    public void metricAdded(Metric metric, String metricName, MetricGroup group) {
        leadership.metricAdded(metricName, group);
        RegisteredMetric m = index.add(metric, metricName, group);
        if (m != null) {
            roles.metricAdded(m);
        }
    }

    /** Flink unregistered a metric (under its registry lock). */
    public void metricRemoved(Metric metric, String metricName, MetricGroup group) {
        leadership.metricRemoved(metricName, group);
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
    @VisibleForTesting
    void setRole(ProcessRole newRole) {
        roles.set(newRole);
    }

    /** The hub's stores on disk, or null without a hub or when they are in memory only. */
    private DurableStores.Status storesDirStatus() {
        Hub h = roles.hub();
        DurableStores d = h == null ? null : h.durableStores();
        return d == null ? null : d.status();
    }

    /** Whether this process runs the hub (a JobManager with the hub enabled). */
    public boolean hubRunning() {
        return roles.hub() != null;
    }

    /**
     * Flink's REST base URL as the hub resolved it, or null when this process runs no hub (or it is
     * unresolved).
     */
    public String flinkWebUrl() {
        Hub h = roles.hub();
        return h == null ? null : h.flinkRestUrl();
    }

    public InsightConfiguration config() {
        return config;
    }

    @VisibleForTesting
    public MetricIndex index() {
        return index;
    }

    @VisibleForTesting
    public InsightStores stores() {
        return stores;
    }

    /** The role known so far (jobmanager, taskmanager, client), or null. */
    @VisibleForTesting
    public ProcessRole role() {
        return roles.role();
    }

    /** The HTTP port, or -1 when the server is not running. */
    public int port() {
        InsightHttpServer s = server;
        return s == null ? -1 : s.port();
    }

    /** Stops the sampler, the server (its port is free on return) and the hub. */
    @Override
    public void close() {
        if (samplerThread != null) {
            samplerThread.close();
        }
        if (server != null) {
            server.close();
        }
        roles.close();
    }
}
