package io.flinkinsight.client.metrics;

import org.apache.flink.traces.SpanBuilder;

import javax.annotation.Nullable;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * Child spans, which Flink's {@code SpanBuilder} takes since 2.2 ({@code addChild}): probed once by
 * reflection on the loaded Flink, so a query's span carries its phases as children where a tracing
 * backend can draw them, and as attributes only on older Flinks.
 */
final class SpanChildren {

    @Nullable private static final MethodHandle ADD_CHILD = probe();

    private SpanChildren() {}

    /** Whether this Flink's spans take children. */
    static boolean supported() {
        return ADD_CHILD != null;
    }

    /** For the client's log line at start. */
    static String describe() {
        return supported()
                ? "query spans carry their phases as child spans"
                : "query spans carry their phases as attributes only (child spans need Flink 2.2+)";
    }

    /**
     * Adds {@code child} to {@code parent} where this Flink can; false when it cannot or failed, so
     * the span goes without (the rest of) its children rather than not at all.
     */
    static boolean add(SpanBuilder parent, SpanBuilder child) {
        if (ADD_CHILD == null) {
            return false;
        }
        try {
            ADD_CHILD.invoke(parent, child);
            return true;
        } catch (Throwable t) {
            return false; // addChild declares nothing; a failure here must not lose the span
        }
    }

    @Nullable
    private static MethodHandle probe() {
        try {
            return MethodHandles.publicLookup()
                    .findVirtual(
                            SpanBuilder.class,
                            "addChild",
                            MethodType.methodType(SpanBuilder.class, SpanBuilder.class));
        } catch (NoSuchMethodException | IllegalAccessException e) {
            return null;
        }
    }
}
