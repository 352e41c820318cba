package io.flinkinsight.client;

import io.flinkinsight.client.flink.FlinkApi;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * When the interactive client cannot run on this Flink (the jar of another Flink line, or, as a
 * last resort, a call that the probes of {@link FlinkApi} did not foresee cannot link): the query
 * or cluster action runs on Flink's own client instead, and the log says so once.
 */
final class FlinkClientFallback {

    private static final Logger LOG = LoggerFactory.getLogger(FlinkClientFallback.class);
    private static final AtomicBoolean WARNED = new AtomicBoolean();

    private FlinkClientFallback() {}

    /**
     * This jar was built for another Flink line than the one that loaded it (see {@link
     * FlinkApi#describe}).
     */
    static void wrongJarOnce(FlinkApi flink) {
        if (WARNED.compareAndSet(false, true)) {
            LOG.warn("The interactive client cannot run on this Flink: {}.", flink.describe());
        }
    }

    static void warnOnce(LinkageError error) {
        if (WARNED.compareAndSet(false, true)) {
            LOG.warn(
                    "The interactive client cannot run on this Flink ({}); queries and cluster actions use Flink's"
                            + " own client instead. Use the interactive-client jar built for this Flink line (see the"
                            + " README).",
                    error.toString(),
                    error);
        } else {
            LOG.debug("Running on Flink's own client: {}", error.toString());
        }
    }
}
