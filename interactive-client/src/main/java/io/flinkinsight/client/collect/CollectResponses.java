package io.flinkinsight.client.collect;

import io.flinkinsight.client.transport.ServerErrors;

import org.apache.flink.api.common.accumulators.SerializedListAccumulator;
import org.apache.flink.api.common.typeutils.base.LongSerializer;
import org.apache.flink.api.common.typeutils.base.StringSerializer;
import org.apache.flink.api.common.typeutils.base.array.BytePrimitiveArraySerializer;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.streaming.api.operators.collect.CollectCoordinationResponse;
import org.apache.flink.streaming.api.operators.collect.CollectSinkFunction;

import javax.annotation.Nullable;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Reads Flink's collect responses without the result type's serializer: how many results a poll
 * returned, and the results a finished job left in its collect accumulator.
 */
final class CollectResponses {

    /** The version a collect client sends before the sink told it the real one. */
    static final String INIT_VERSION = "";

    /**
     * What the JobManager's error for a poll says while the job's collect sink is not deployed yet:
     * the job is initializing, or the sink's vertex is not initialized (2.x names the exception,
     * 1.20 only says so). Flink's fetcher reads the same messages as "not started".
     */
    private static final List<String> SINK_NOT_STARTED_MESSAGES =
            List.of(
                    "org.apache.flink.runtime.dispatcher.UnavailableDispatcherOperationException",
                    "org.apache.flink.runtime.scheduler.CoordinatorNotExistException",
                    "the job vertex this operator belongs to is not initialized");

    private CollectResponses() {}

    /**
     * Whether a poll's failure only says the job's collect sink is not deployed yet (so the job has
     * not ended).
     */
    static boolean sinkNotStarted(Throwable failure) {
        return ServerErrors.mentionsAny(failure, SINK_NOT_STARTED_MESSAGES);
    }

    /** Results carried by {@code response}. */
    static int resultCount(CollectCoordinationResponse response) throws IOException {
        DataInputDeserializer in = serialized(response);
        StringSerializer.INSTANCE.deserialize(in);
        LongSerializer.INSTANCE.deserialize(in);
        // ListSerializer writes the list's size first
        return in.readInt();
    }

    /** The serialized results carried by {@code response}, in order. */
    static List<byte[]> serializedResults(CollectCoordinationResponse response) throws IOException {
        DataInputDeserializer in = serialized(response);
        StringSerializer.INSTANCE.deserialize(in);
        LongSerializer.INSTANCE.deserialize(in);
        int size = in.readInt();
        List<byte[]> results = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            results.add(BytePrimitiveArraySerializer.INSTANCE.deserialize(in));
        }
        return results;
    }

    private static DataInputDeserializer serialized(CollectCoordinationResponse response)
            throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(256);
        response.serialize(out);
        return new DataInputDeserializer(out.getSharedBuffer(), 0, out.length());
    }

    /**
     * The answer a poll for ({@code version}, {@code offset}) would have got had the finished job's
     * sink still been running: the results from {@code offset} on that the sink left in its
     * accumulator, all of them final (a finished job cannot roll back), so {@code
     * lastCheckpointedOffset} is the end of them. Null when that cannot be told for sure (no or
     * several collect accumulators, another sink version, no results past {@code offset}); the
     * caller then lets Flink's fetcher read the accumulator itself.
     */
    @Nullable
    static CollectCoordinationResponse finalResults(
            Map<String, Object> accumulators, String version, long offset) {
        Tuple2<Long, CollectCoordinationResponse> found = null;
        for (Object value : accumulators.values()) {
            Tuple2<Long, CollectCoordinationResponse> candidate = asCollectAccumulator(value);
            if (candidate == null
                    || (!INIT_VERSION.equals(version)
                            && !version.equals(candidate.f1.getVersion()))) {
                continue;
            }
            if (found != null) {
                return null;
            }
            found = candidate;
        }
        if (found == null) {
            return null;
        }
        long firstOffset = found.f0;
        List<byte[]> results;
        try {
            results = serializedResults(found.f1);
        } catch (IOException e) {
            return null;
        }
        if (firstOffset > offset || offset - firstOffset >= results.size()) {
            return null;
        }
        List<byte[]> rest =
                new ArrayList<>(results.subList((int) (offset - firstOffset), results.size()));
        return new CollectCoordinationResponse(found.f1.getVersion(), offset + rest.size(), rest);
    }

    @Nullable
    @SuppressWarnings("unchecked")
    private static Tuple2<Long, CollectCoordinationResponse> asCollectAccumulator(Object value) {
        if (!(value instanceof ArrayList)
                || ((ArrayList<?>) value).size() != 1
                || !(((ArrayList<?>) value).get(0) instanceof byte[])) {
            return null;
        }
        try {
            List<byte[]> serialized =
                    SerializedListAccumulator.deserializeList(
                            (ArrayList<byte[]>) value, BytePrimitiveArraySerializer.INSTANCE);
            return CollectSinkFunction.deserializeAccumulatorResult(serialized.get(0));
        } catch (Exception e) {
            // another accumulator that happens to hold bytes
            return null;
        }
    }
}
