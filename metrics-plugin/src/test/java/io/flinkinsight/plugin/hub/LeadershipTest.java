package io.flinkinsight.plugin.hub;

import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.clusterframework.types.ResourceID;
import org.apache.flink.runtime.metrics.MetricNames;
import org.apache.flink.runtime.metrics.NoOpMetricRegistry;
import org.apache.flink.runtime.metrics.filter.ReporterFilter;
import org.apache.flink.runtime.metrics.groups.AbstractMetricGroup;
import org.apache.flink.runtime.metrics.groups.FrontMetricGroup;
import org.apache.flink.runtime.metrics.groups.JobManagerMetricGroup;
import org.apache.flink.runtime.metrics.groups.ReporterScopedSettings;
import org.apache.flink.runtime.metrics.groups.ResourceManagerMetricGroup;
import org.apache.flink.runtime.metrics.groups.TaskManagerMetricGroup;

import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** The leadership follows the ResourceManager's gauge on Flink's real metric groups. */
class LeadershipTest {

    /** A new ResourceManager's group, as Flink's registry hands it to a reporter. */
    static MetricGroup resourceManagerGroup() {
        return asReporterSees(
                ResourceManagerMetricGroup.create(NoOpMetricRegistry.INSTANCE, "localhost"));
    }

    /** {@code group} as Flink's registry hands it to a reporter: in a FrontMetricGroup. */
    static MetricGroup asReporterSees(MetricGroup group) {
        return new FrontMetricGroup<>(
                new ReporterScopedSettings<>(
                        0, '.', ReporterFilter.getNoOpFilter(), Set.of(), Map.of()),
                (AbstractMetricGroup<?>) group);
    }

    @Test
    void theSignalIsFlinksOwnMetricName() {
        assertThat(Leadership.SIGNAL_METRIC).isEqualTo(MetricNames.NUM_REGISTERED_TASK_MANAGERS);
    }

    @Test
    void leadsWhileAResourceManagersGaugeIsRegistered() {
        Leadership leadership = new Leadership();
        assertThat(leadership.leading()).as("before the ResourceManager starts").isFalse();

        MetricGroup group = resourceManagerGroup();
        leadership.metricAdded(Leadership.SIGNAL_METRIC, group);
        assertThat(leadership.leading()).as("granted").isTrue();

        leadership.metricRemoved(Leadership.SIGNAL_METRIC, group);
        assertThat(leadership.leading()).as("revoked").isFalse();

        leadership.metricAdded(Leadership.SIGNAL_METRIC, resourceManagerGroup());
        assertThat(leadership.leading()).as("granted again").isTrue();
    }

    @Test
    void aNewSessionsResourceManagerBeforeTheOldOnesCloseStillLeads() {
        Leadership leadership = new Leadership();
        MetricGroup old = resourceManagerGroup();
        leadership.metricAdded(Leadership.SIGNAL_METRIC, old);
        leadership.metricAdded(Leadership.SIGNAL_METRIC, resourceManagerGroup());
        leadership.metricRemoved(Leadership.SIGNAL_METRIC, old);
        assertThat(leadership.leading()).isTrue();
    }

    @Test
    void otherMetricsAndScopesAreNoSignal() {
        Leadership leadership = new Leadership();
        leadership.metricAdded(
                "taskSlotsTotal",
                asReporterSees(
                        JobManagerMetricGroup.createJobManagerMetricGroup(
                                NoOpMetricRegistry.INSTANCE, "localhost")));
        leadership.metricAdded("Status.JVM.CPU.Load", resourceManagerGroup());
        TaskManagerMetricGroup taskManager =
                TaskManagerMetricGroup.createTaskManagerMetricGroup(
                        NoOpMetricRegistry.INSTANCE, "localhost", ResourceID.generate());
        leadership.metricAdded(Leadership.SIGNAL_METRIC, asReporterSees(taskManager));
        leadership.metricAdded(
                Leadership.SIGNAL_METRIC, asReporterSees(taskManager.addGroup("user")));
        leadership.metricAdded(
                Leadership.SIGNAL_METRIC,
                ResourceManagerMetricGroup.create(NoOpMetricRegistry.INSTANCE, "localhost"));
        assertThat(leadership.leading()).isFalse();
    }

    @Test
    void aRemovalNeverSeenAddedDoesNotCountBelowZero() {
        Leadership leadership = new Leadership();
        leadership.metricRemoved(Leadership.SIGNAL_METRIC, resourceManagerGroup());
        leadership.metricAdded(Leadership.SIGNAL_METRIC, resourceManagerGroup());
        assertThat(leadership.leading()).isTrue();
    }
}
