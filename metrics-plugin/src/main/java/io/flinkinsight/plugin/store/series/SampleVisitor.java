package io.flinkinsight.plugin.store.series;

/** Receives decoded samples in time order, so reads need not allocate a point object per sample. */
@FunctionalInterface
public interface SampleVisitor {

    void accept(long timestampMillis, double value);
}
