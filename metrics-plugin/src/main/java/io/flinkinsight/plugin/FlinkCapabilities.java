package io.flinkinsight.plugin;

import java.util.ArrayList;
import java.util.List;

/**
 * What the Flink of this process gives the plugin, probed once by reflection on the API classes
 * actually loaded (Flink 1.20 through 2.3 differ; see README, "Flink versions"). Code paths branch
 * on these flags, so a method a version lacks is never called, instead of being called and its
 * {@code NoSuchMethodError} caught.
 *
 * @param flinkVersion Flink's version as the JobManager and TaskManager report it, or "unknown"
 * @param traceReporters {@code org.apache.flink.traces.Span} and the trace reporter API (Flink
 *     1.19+): the {@code Checkpoint} span with its id, sizes, status and times
 * @param spanChildren {@code Span.getChildren()} (Flink 2.2+): per-task and per-subtask child spans
 * @param spanDetailLevel {@code TraceOptions.CHECKPOINT_SPAN_DETAIL_LEVEL} (Flink 2.2+), which
 *     comes with the {@code max*}/{@code sum*} phase figures on the {@code Checkpoint} span
 * @param eventReporters the event reporter API {@code
 *     org.apache.flink.events.reporter.EventReporter} (Flink 2.1+)
 * @param builtInEvents {@code org.apache.flink.events.Events} (Flink 2.2+): Flink itself reports
 *     job status changes, failures and checkpoints as events
 */
public record FlinkCapabilities(
        String flinkVersion,
        boolean traceReporters,
        boolean spanChildren,
        boolean spanDetailLevel,
        boolean eventReporters,
        boolean builtInEvents) {

    public static final String UNKNOWN_VERSION = "unknown";

    private static volatile FlinkCapabilities current;

    /** One capability as {@code /api/v1/overview} lists it. */
    public record Capability(
            String name,
            boolean available,
            String since,
            String option,
            String gives,
            String whenMissing) {}

    /** The capabilities of the Flink that loaded the plugin, probed on first use. */
    public static FlinkCapabilities current() {
        FlinkCapabilities c = current;
        if (c == null) {
            c = probe(FlinkCapabilities.class.getClassLoader());
            current = c;
        }
        return c;
    }

    /**
     * Probes the Flink API visible from {@code loader} (the plugin's class loader sees Flink's own
     * classes).
     */
    public static FlinkCapabilities probe(ClassLoader loader) {
        Class<?> span = load("org.apache.flink.traces.Span", loader);
        Class<?> traceOptions = load("org.apache.flink.configuration.TraceOptions", loader);
        return new FlinkCapabilities(
                flinkVersion(loader),
                span != null,
                hasMethod(span, "getChildren"),
                hasField(traceOptions, "CHECKPOINT_SPAN_DETAIL_LEVEL"),
                load("org.apache.flink.events.reporter.EventReporter", loader) != null,
                load("org.apache.flink.events.Events", loader) != null);
    }

    /**
     * Whether the {@code Checkpoint} span carries phase figures and (when asked) task and subtask
     * children.
     */
    public boolean checkpointSpanDetail() {
        return spanChildren && spanDetailLevel;
    }

    /** What this Flink gives and does not, for {@code /api/v1/overview} and the panel's notes. */
    public List<Capability> list() {
        String rest = "filled from Flink's REST API: ";
        List<Capability> out = new ArrayList<>();
        out.add(
                new Capability(
                        "checkpoint-spans",
                        traceReporters,
                        "1.19",
                        "traces.reporter.insight.factory.class",
                        "each checkpoint's id, status, times, full and checkpointed size as Flink completes it",
                        rest + "the same from /jobs/:id/checkpoints, as often as the hub polls"));
        out.add(
                new Capability(
                        "checkpoint-phase-figures",
                        checkpointSpanDetail(),
                        "2.2",
                        null,
                        "max and sum over subtasks of sync and async duration, alignment, start delay, processed and"
                                + " persisted data",
                        rest
                                + "processed and persisted data, and per task its sizes and duration, from"
                                + " /jobs/:id/checkpoints; no sync/async split"));
        out.add(
                new Capability(
                        "checkpoint-task-spans",
                        checkpointSpanDetail(),
                        "2.2",
                        "traces.checkpoint.span-detail-level",
                        "per task (and per subtask) phase figures of each checkpoint",
                        rest
                                + "per task sizes and end-to-end duration from /jobs/:id/checkpoints/details/:cid"));
        out.add(
                new Capability(
                        "event-reporters",
                        eventReporters,
                        "2.1",
                        "events.reporter.insight.factory.class",
                        "the event reporter API",
                        "nothing: the events services file is never read"));
        out.add(
                new Capability(
                        "job-events",
                        builtInEvents,
                        "2.2",
                        "events.reporter.insight.factory.class",
                        "job status changes, failures and all-subtasks-running times as Flink reports them",
                        rest
                                + "status changes and cluster-side latency from /jobs/overview and /jobs/:id (as often as the"
                                + " hub polls); failures are not reported"));
        return out;
    }

    private static Class<?> load(String name, ClassLoader loader) {
        try {
            return Class.forName(name, false, loader);
        } catch (ClassNotFoundException | LinkageError e) {
            return null; // this Flink has no such API (or one whose own dependencies are missing)
        }
    }

    private static boolean hasMethod(Class<?> type, String name) {
        if (type == null) {
            return false;
        }
        try {
            type.getMethod(name);
            return true;
        } catch (NoSuchMethodException
                | LinkageError e) { // a signature naming a class this Flink lacks
            return false;
        }
    }

    private static boolean hasField(Class<?> type, String name) {
        if (type == null) {
            return false;
        }
        try {
            type.getField(name);
            return true;
        } catch (NoSuchFieldException | LinkageError e) {
            return false;
        }
    }

    /**
     * Flink's version: from flink-runtime's {@code EnvironmentInformation} (JobManager,
     * TaskManager), else from flink-core's manifest (a client process may have no flink-runtime).
     */
    static String flinkVersion(ClassLoader loader) {
        Class<?> env = load("org.apache.flink.runtime.util.EnvironmentInformation", loader);
        if (env != null) {
            try {
                Object v = env.getMethod("getVersion").invoke(null);
                if (v instanceof String s && !s.isEmpty() && !s.startsWith("<")) {
                    return s;
                }
            } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
                // an EnvironmentInformation without getVersion(), or failing to initialize: the
                // manifest then
            }
        }
        Class<?> configuration = load("org.apache.flink.configuration.Configuration", loader);
        Package p = configuration == null ? null : configuration.getPackage();
        String v = p == null ? null : p.getImplementationVersion();
        return v == null ? UNKNOWN_VERSION : v;
    }
}
