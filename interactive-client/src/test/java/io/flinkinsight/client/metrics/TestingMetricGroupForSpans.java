package io.flinkinsight.client.metrics;

import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.flink.traces.SpanBuilder;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A metric group that keeps the spans added to it, or fails as a broken reporter would. */
final class TestingMetricGroupForSpans extends UnregisteredMetricsGroup {

    final List<SpanBuilder> spans = new CopyOnWriteArrayList<>();
    volatile RuntimeException failWith;

    @Override
    public void addSpan(SpanBuilder span) {
        if (failWith != null) {
            throw failWith;
        }
        spans.add(span);
    }
}
