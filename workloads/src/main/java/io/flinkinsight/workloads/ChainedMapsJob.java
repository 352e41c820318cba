package io.flinkinsight.workloads;

import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;

/**
 * The chained-maps job, CPU-bound: {@code fromSequence} through 10 chained identity maps into a
 * discarding sink, at parallelism 1 with object reuse. All operators chain into one task, so its
 * throughput is the per-record cost of the operator chain, the place where a metrics reporter would
 * show up if it slowed records down (as a metric counter did before FLINK-30536 took it off Flink's
 * per-record path).
 *
 * <p>Arguments: {@code [records] [jobName]}; defaults 100,000,000 and {@value #DEFAULT_NAME}.
 */
public final class ChainedMapsJob {

    public static final String DEFAULT_NAME = "chained-maps";
    public static final long DEFAULT_RECORDS = 100_000_000L;
    public static final int MAPS = 10;

    private ChainedMapsJob() {}

    public static void main(String[] args) throws Exception {
        long records = args.length > 0 ? Long.parseLong(args[0]) : DEFAULT_RECORDS;
        String name = args.length > 1 ? args[1] : DEFAULT_NAME;

        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.getExecutionEnvironment(jobConfiguration());
        env.setParallelism(1);
        build(env, records);
        env.execute(name);
    }

    /**
     * Parallelism 1, object reuse and streaming mode: one task whose throughput is nothing but the
     * chain's cost.
     */
    static Configuration jobConfiguration() {
        Configuration conf = new Configuration();
        conf.set(PipelineOptions.OBJECT_REUSE, true);
        conf.set(ExecutionOptions.RUNTIME_MODE, RuntimeExecutionMode.STREAMING);
        return conf;
    }

    /** Adds the pipeline to {@code env}. */
    static void build(StreamExecutionEnvironment env, long records) {
        DataStream<Long> stream = env.fromSequence(1, records);
        for (int i = 0; i < MAPS; i++) {
            stream = stream.map(x -> x);
        }
        stream.sinkTo(new DiscardingSink<>());
    }
}
