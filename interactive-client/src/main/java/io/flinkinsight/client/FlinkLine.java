package io.flinkinsight.client;

import io.flinkinsight.client.collect.CollectLongPoll;
import io.flinkinsight.client.collect.InstrumentedJobClient;
import io.flinkinsight.client.collect.JobClientGateway;
import io.flinkinsight.client.collect.QueryRecord;
import io.flinkinsight.client.flink.FlinkApi;
import io.flinkinsight.client.pool.ClusterClientPool;

import org.apache.flink.client.deployment.StandaloneClusterId;
import org.apache.flink.client.program.ClusterClient;

import java.util.ServiceLoader;
import java.util.function.Function;

/**
 * This jar's Flink line: its {@link FlinkApi}, which the entry points hand to the client's
 * mechanisms, plus the two objects whose classes must implement an interface of this Flink line (so
 * they are subclassed per line). The one implementation is named in this jar's {@code
 * META-INF/services} and looked up once, here, at the top.
 */
public interface FlinkLine extends FlinkApi {

    /** The implementation of this jar's Flink line. */
    static FlinkLine get() {
        return Holder.INSTANCE;
    }

    /**
     * The job client a query's caller gets: an {@link InstrumentedJobClient} that also takes
     * coordination requests as this Flink's collect fetcher sends them.
     */
    InstrumentedJobClient newJobClient(
            JobClientGateway delegate,
            QueryRecord record,
            Function<CollectLongPoll.Job, CollectLongPoll> longPoll);

    /**
     * A cluster client for Flink code that closes what it gets: every call on the lease's client.
     */
    ClusterClient<StandaloneClusterId> leasedClusterClient(ClusterClientPool.Lease lease);

    /** Loads the implementation once, from this jar. */
    final class Holder {
        private static final FlinkLine INSTANCE = load();

        private Holder() {}

        private static FlinkLine load() {
            return ServiceLoader.load(FlinkLine.class, FlinkLine.class.getClassLoader())
                    .findFirst()
                    .orElseThrow(
                            () ->
                                    new IllegalStateException(
                                            "No "
                                                    + FlinkLine.class.getName()
                                                    + " in this jar's META-INF/services: it was built wrong."));
        }
    }
}
