package io.flinkinsight.plugin.index;

import io.flinkinsight.plugin.store.SeriesKey;

import org.apache.flink.metrics.LogicalScopeProvider;
import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.MetricGroup;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Every metric of the process, grouped into Prometheus families, as the scrape, the JSON API and
 * the sampler see it.
 *
 * <p>Flink calls {@link #add} and {@link #remove} under its metric registry's global lock, so both
 * are O(1) apart from a new group's labels, which are rendered once and shared by all metrics of
 * that group. Readers get immutable arrays that are rebuilt only after a change, so a scrape never
 * holds the lock while reading values.
 */
public final class MetricIndex {

    private static final Logger LOG = LoggerFactory.getLogger(MetricIndex.class);
    private static final MetricFamily[] NO_FAMILIES = new MetricFamily[0];
    private static final Set<String> HISTOGRAM_RESERVED_LABELS = Set.of(SeriesKey.QUANTILE_LABEL);

    /**
     * Problems logged at WARN before the index goes quiet, so a misbehaving job cannot flood
     * Flink's log.
     */
    private static final int MAX_WARNINGS = 20;

    private final boolean filterLabelValues;
    private final Object lock = new Object();

    // Guarded by lock.
    private final Map<String, MetricFamily> families = new HashMap<>();
    private int registered;
    private int warnings;
    private final GroupLabelCache plainLabels = new GroupLabelCache(Set.of());
    private final GroupLabelCache histogramLabels = new GroupLabelCache(HISTOGRAM_RESERVED_LABELS);
    private final JobAges jobs;

    private volatile MetricFamily[] sortedFamilies = NO_FAMILIES;
    private final AtomicLong rejected = new AtomicLong();

    /** An index whose scrape shows every job's series at once ({@link JobSeriesRule#SHOW_ALL}). */
    public MetricIndex(boolean filterLabelValues) {
        this(filterLabelValues, JobSeriesRule.SHOW_ALL);
    }

    /**
     * @param jobSeries the rule the scrape applies, by which each metric of a job is given its
     *     job's {@link JobAge} (none when the rule shows every series)
     */
    public MetricIndex(boolean filterLabelValues, JobSeriesRule jobSeries) {
        this.filterLabelValues = filterLabelValues;
        this.jobs = new JobAges(jobSeries);
    }

    /**
     * Indexes a metric Flink registered. Returns it, or null when it cannot be exposed (unknown
     * metric type, a group without logical scope, or a name already used by a metric of another
     * kind). Never throws.
     */
    public RegisteredMetric add(Metric metric, String metricName, MetricGroup group) {
        try {
            MetricKind kind = MetricKind.of(metric);
            if (kind == null) {
                reject(
                        "metric {} of unsupported type {} is not exposed",
                        metricName,
                        metric.getClass().getName());
                return null;
            }
            String logicalScope = logicalScope(group);
            String familyName = PrometheusNaming.familyName(logicalScope, metricName);
            synchronized (lock) {
                MetricFamily family = families.get(familyName);
                if (family == null) {
                    family =
                            new MetricFamily(
                                    familyName,
                                    PrometheusNaming.help(logicalScope, metricName),
                                    logicalScope,
                                    kind,
                                    lock);
                    families.put(familyName, family);
                    sortedFamilies = null;
                } else if (family.kind() != kind) {
                    reject(
                            "metric {} is a {} but {} is already a {}; it is not exposed",
                            metricName,
                            kind,
                            familyName,
                            family.kind());
                    return null;
                }
                Map<String, String> variables = group.getAllVariables();
                LabelSet labels = labels(kind, variables);
                RegisteredMetric registeredMetric =
                        new RegisteredMetric(metric, family, labels, jobs.added(variables));
                family.put(registeredMetric);
                registered++;
                return registeredMetric;
            }
        } catch (RuntimeException e) {
            reject("metric {} could not be indexed: {}", metricName, e.toString());
            return null;
        }
    }

    /** Forgets a metric Flink unregistered; unknown metrics are ignored. Never throws. */
    public void remove(Metric metric, String metricName, MetricGroup group) {
        try {
            MetricKind kind = MetricKind.of(metric);
            if (kind == null) {
                return;
            }
            String familyName = PrometheusNaming.familyName(logicalScope(group), metricName);
            synchronized (lock) {
                MetricFamily family = families.get(familyName);
                if (family == null || family.kind() != kind) {
                    return;
                }
                Map<String, String> variables = group.getAllVariables();
                if (family.remove(labels(kind, variables), metric)) {
                    registered--;
                    jobs.removed(variables);
                    if (family.isEmpty()) {
                        families.remove(familyName);
                        sortedFamilies = null;
                    }
                }
            }
        } catch (RuntimeException e) {
            LOG.debug("Metric {} could not be removed from the index", metricName, e);
        }
    }

    /** The families at this moment, sorted by name; the array is shared: never modify. */
    public MetricFamily[] families() {
        MetricFamily[] s = sortedFamilies;
        if (s != null) {
            return s;
        }
        synchronized (lock) {
            if (sortedFamilies == null) {
                MetricFamily[] all = families.values().toArray(NO_FAMILIES);
                Arrays.sort(all, Comparator.comparing(MetricFamily::name));
                sortedFamilies = all;
            }
            return sortedFamilies;
        }
    }

    /** Metrics currently registered, counting a series registered twice twice. */
    public int metricCount() {
        synchronized (lock) {
            return registered;
        }
    }

    /**
     * Jobs with metrics in this process now, as the job-series rule tracks them (0 when it shows
     * all).
     */
    int trackedJobs() {
        synchronized (lock) {
            return jobs.liveJobs();
        }
    }

    /**
     * Jobs shown once and now without metrics here whose age is remembered (see {@link JobAges}).
     */
    int retiredJobs() {
        synchronized (lock) {
            return jobs.retiredJobs();
        }
    }

    /** Metrics Flink registered that are not exposed (see {@link #add}). */
    public long rejectedCount() {
        return rejected.get();
    }

    private static String logicalScope(MetricGroup group) {
        return LogicalScopeProvider.castFrom(group)
                .getLogicalScope(PrometheusNaming.FILTER, PrometheusNaming.SCOPE_SEPARATOR);
    }

    private LabelSet labels(MetricKind kind, Map<String, String> variables) {
        return (kind == MetricKind.HISTOGRAM ? histogramLabels : plainLabels).get(variables);
    }

    private void reject(String format, Object... args) {
        rejected.incrementAndGet();
        boolean warn;
        synchronized (lock) {
            warn = warnings < MAX_WARNINGS;
            warnings++;
        }
        if (warn) {
            LOG.warn("Flink Insight: " + format, args);
        } else {
            LOG.debug("Flink Insight: " + format, args);
        }
    }

    /**
     * Remembers the labels of the groups seen last, by their variables. Flink registers a group's
     * metrics one after another, a task's subgroups ("buffers", "Shuffle", an operator's IO
     * group...) carry the same variables as the task or operator, and a group's metrics are removed
     * as they were added: so most label renderings, which sort, sanitise and escape every variable,
     * become one hash lookup. Bounded; guarded by the index's lock.
     */
    private final class GroupLabelCache {
        /**
         * Enough for the groups of several tasks registering or closing at once; a miss only costs
         * a rendering.
         */
        private static final int CAPACITY = 256;

        private final Set<String> reserved;
        private final LinkedHashMap<Map<String, String>, LabelSet> recent =
                new LinkedHashMap<>(2 * CAPACITY, 0.75f, true) {
                    @Override
                    protected boolean removeEldestEntry(
                            Map.Entry<Map<String, String>, LabelSet> eldest) {
                        return size() > CAPACITY;
                    }
                };

        GroupLabelCache(Set<String> reserved) {
            this.reserved = reserved;
        }

        LabelSet get(Map<String, String> variables) {
            LabelSet labels = recent.get(variables);
            if (labels == null) {
                labels = LabelSet.fromVariables(variables, filterLabelValues, reserved);
                // A copy as key: a group could change the map it handed out, and a key must not
                // change.
                recent.put(new HashMap<>(variables), labels);
            }
            return labels;
        }
    }
}
