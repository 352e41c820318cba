package io.flinkinsight.plugin.store;

import io.flinkinsight.plugin.http.JsonEndpoint;
import org.apache.flink.events.Event;
import org.apache.flink.traces.Span;

import java.time.Clock;
import java.util.Map;

/**
 * Everything the process remembers beyond current metric values: metric history, checkpoints from spans, jobs from
 * events, and (in the JobManager) what the hub gathers from TaskManagers. Never throws into its callers.
 */
public final class InsightStores implements AutoCloseable {

    private final SeriesStore series;

    public InsightStores(StoreSettings settings, Clock clock) {
        this.series = new SeriesStore(settings, clock);
    }

    public SeriesStore series() {
        return series;
    }

    /** Called from Flink's TraceReporter callback, under the metric registry's lock: must be cheap. */
    public void onSpan(Span span) {}

    /** Called from Flink's EventReporter callback, under the metric registry's lock: must be cheap. */
    public void onEvent(Event event) {}

    /** The process turned out to be a JobManager ("jobmanager"), TaskManager ("taskmanager") or client ("client"). */
    public void onRoleKnown(String role) {}

    /** The JSON endpoints these stores serve, keyed by path (e.g. "/api/v1/series"). */
    public Map<String, JsonEndpoint> endpoints() {
        return Map.of();
    }

    @Override
    public void close() {}
}
