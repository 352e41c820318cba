package io.flinkinsight.benchmarks.history;

import java.util.Random;

/**
 * Produces the next value of one series the way its Flink metric moves over time, so the history
 * store compresses realistic data rather than constants: counters grow, watermarks advance, rates
 * and loads are noisy doubles, some gauges never change, and a rare sample is NaN (a gauge not yet
 * initialised, a histogram with no samples).
 */
final class SampleGenerator {

    /** How a metric's value evolves from one sample to the next. */
    enum Shape {
        GROWING_COUNTER,
        NOISY_RATE,
        ADVANCING_WATERMARK,
        NOISY_LOAD,
        CONSTANT,
        SMALL_INTEGER,
        LATENCY_QUANTILE;

        /** The shape of a Flink operator metric, by its name. */
        static Shape of(String metricName) {
            if (metricName.endsWith("PerSecond") && metricName.startsWith("num")) {
                return NOISY_RATE;
            }
            if (metricName.startsWith("num") && !metricName.endsWith("Errors")) {
                return GROWING_COUNTER;
            }
            if (metricName.endsWith("Watermark")) {
                return ADVANCING_WATERMARK;
            }
            if (metricName.endsWith("TimeMsPerSecond") || metricName.startsWith("rocksdb")) {
                return NOISY_LOAD;
            }
            if (metricName.startsWith("mailboxQueue") || metricName.startsWith("is")) {
                return SMALL_INTEGER;
            }
            if (metricName.endsWith("Ms")
                    || metricName.endsWith("Nanos")
                    || metricName.endsWith("Drift")) {
                return LATENCY_QUANTILE;
            }
            return CONSTANT;
        }
    }

    /** One NaN in this many samples. */
    private static final int NAN_ONE_IN = 2_000;

    private final Shape shape;
    private final Random random;
    private final double scale;
    private double value;

    SampleGenerator(Shape shape, long seed, long startMillis) {
        this.shape = shape;
        this.random = new Random(seed);
        this.scale = 1 + random.nextInt(10_000);
        this.value =
                switch (shape) {
                    case GROWING_COUNTER -> random.nextInt(50_000_000);
                    case ADVANCING_WATERMARK -> startMillis - random.nextInt(10_000);
                    case CONSTANT -> random.nextInt(3) == 0 ? 0 : scale;
                    default -> scale;
                };
    }

    /** The value at the next sample, {@code stepMillis} after the previous one. */
    double next(long stepMillis) {
        if (shape != Shape.CONSTANT && random.nextInt(NAN_ONE_IN) == 0) {
            return Double.NaN;
        }
        double seconds = stepMillis / 1000.0;
        switch (shape) {
            case GROWING_COUNTER ->
                    value += Math.floor(scale * seconds * (0.8 + 0.4 * random.nextDouble()));
            case NOISY_RATE -> value = scale * (0.8 + 0.4 * random.nextDouble());
            case ADVANCING_WATERMARK -> value += stepMillis - 200 + random.nextInt(400);
            case NOISY_LOAD -> value = Math.max(0, value + scale * 0.05 * random.nextGaussian());
            case SMALL_INTEGER -> value = random.nextInt(10) < 8 ? 0 : random.nextInt(4);
            case LATENCY_QUANTILE ->
                    value = scale / 100 * -Math.log1p(-random.nextDouble() * 0.999);
            case CONSTANT -> {}
        }
        return value;
    }
}
