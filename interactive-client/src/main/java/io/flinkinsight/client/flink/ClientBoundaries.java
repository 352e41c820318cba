package io.flinkinsight.client.flink;

import io.flinkinsight.common.FlinkBoundary;

import org.slf4j.Logger;

import java.time.Clock;

/** The interactive client's {@link FlinkBoundary}s, whose messages name the client. */
public final class ClientBoundaries {

    private ClientBoundaries() {}

    /**
     * A boundary logging to {@code log}; the client calls it from its own threads ({@code
     * runScheduled}).
     */
    public static FlinkBoundary logTo(Logger log) {
        return new FlinkBoundary("Flink Insight interactive client", log, Clock.systemUTC());
    }
}
