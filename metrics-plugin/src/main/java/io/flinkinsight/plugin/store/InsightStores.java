package io.flinkinsight.plugin.store;

import io.flinkinsight.plugin.http.JsonEndpoint;
import io.flinkinsight.plugin.hub.Hub;
import io.flinkinsight.plugin.store.api.CheckpointsEndpoint;
import io.flinkinsight.plugin.store.api.ClientEndpoint;
import io.flinkinsight.plugin.store.api.JobsEndpoint;
import io.flinkinsight.plugin.store.api.SeriesEndpoint;
import io.flinkinsight.plugin.store.api.SeriesNamesEndpoint;
import io.flinkinsight.plugin.store.checkpoint.CheckpointParser;
import io.flinkinsight.plugin.store.checkpoint.CheckpointRecord;
import io.flinkinsight.plugin.store.checkpoint.CheckpointStore;
import io.flinkinsight.plugin.store.job.JobEventParser;
import io.flinkinsight.plugin.store.job.JobStore;
import org.apache.flink.events.Event;
import org.apache.flink.traces.Span;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * Everything the process remembers beyond current metric values: metric history, checkpoints from spans, jobs from
 * events, and (in the JobManager) what the hub gathers from TaskManagers. Never throws into its callers.
 */
public final class InsightStores implements AutoCloseable {

    public static final String JOBMANAGER = "jobmanager";

    private static final Logger LOG = LoggerFactory.getLogger(InsightStores.class);
    private static final long WARN_INTERVAL_MILLIS = 60_000;

    private final StoreSettings settings;
    private final Clock clock;
    private final SeriesStore series;
    private final CheckpointStore checkpoints;
    private final JobStore jobs;
    private final Map<String, JsonEndpoint> endpoints;
    private final LongAdder callbackFailures = new LongAdder();
    private final RateLimitedLog failureLog;
    private Hub hub;
    private boolean closed;

    public InsightStores(StoreSettings settings, Clock clock) {
        this.settings = settings;
        this.clock = clock;
        this.series = new SeriesStore(settings, clock);
        this.checkpoints = new CheckpointStore(settings.maxCheckpointsPerJob(), settings.maxJobs());
        this.jobs = new JobStore(settings.maxJobs(), clock);
        this.failureLog = new RateLimitedLog(LOG, clock, WARN_INTERVAL_MILLIS);
        Map<String, JsonEndpoint> map = new LinkedHashMap<>();
        map.put(SeriesEndpoint.PATH, new SeriesEndpoint(series));
        map.put(SeriesNamesEndpoint.PATH, new SeriesNamesEndpoint(series));
        map.put(CheckpointsEndpoint.PATH, new CheckpointsEndpoint(checkpoints, jobs, clock));
        map.put(JobsEndpoint.PATH, new JobsEndpoint(jobs, checkpoints));
        map.put(ClientEndpoint.PATH, new ClientEndpoint(series, ClientEndpoint.freshness(settings)));
        this.endpoints = Map.copyOf(map);
    }

    public SeriesStore series() {
        return series;
    }

    public CheckpointStore checkpoints() {
        return checkpoints;
    }

    public JobStore jobs() {
        return jobs;
    }

    /** Called from Flink's TraceReporter callback, under the metric registry's lock: must be cheap. */
    public void onSpan(Span span) {
        try {
            switch (span.getName()) {
                case CheckpointParser.CHECKPOINT_SPAN -> {
                    CheckpointRecord record = CheckpointParser.fromSpan(span);
                    if (record != null) {
                        checkpoints.add(record);
                    }
                }
                case JobEventParser.JOB_INITIALIZATION_SPAN -> JobEventParser.applyInitialization(span, jobs);
                default -> {
                    // other spans (user spans) have no store
                }
            }
        } catch (Throwable t) {
            failed("span", t);
        }
    }

    /** Called from Flink's EventReporter callback, under the metric registry's lock: must be cheap. */
    public void onEvent(Event event) {
        try {
            if (CheckpointParser.CHECKPOINT_EVENT.equals(event.getName())) {
                // The span carries the same and more; the event counts when no trace reporter is configured.
                CheckpointRecord record = CheckpointParser.fromEvent(event);
                if (record != null) {
                    checkpoints.addIfAbsent(record);
                }
            } else {
                JobEventParser.apply(event, jobs);
            }
        } catch (Throwable t) {
            failed("event", t);
        }
    }

    /** The process turned out to be a JobManager ("jobmanager"), TaskManager ("taskmanager") or client ("client"). */
    public void onRoleKnown(String role) {
        try {
            synchronized (this) {
                if (JOBMANAGER.equals(role) && settings.hubEnabled() && hub == null && !closed) {
                    hub = Hub.start(settings, series, jobs, clock);
                }
            }
        } catch (Throwable t) {
            failed("hub start", t);
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

    /** Callbacks that failed (and were swallowed) since start. */
    public long callbackFailures() {
        return callbackFailures.sum();
    }

    /** The JSON endpoints these stores serve, keyed by path (e.g. "/api/v1/series"). */
    public Map<String, JsonEndpoint> endpoints() {
        return endpoints;
    }

    @Override
    public void close() {
        Hub toClose;
        synchronized (this) {
            closed = true;
            toClose = hub;
            hub = null;
        }
        if (toClose != null) {
            try {
                toClose.close();
            } catch (Throwable t) {
                failed("hub stop", t);
            }
        }
    }

    private void failed(String what, Throwable t) {
        callbackFailures.increment();
        failureLog.warn("Flink Insight could not process a " + what, t);
    }
}
