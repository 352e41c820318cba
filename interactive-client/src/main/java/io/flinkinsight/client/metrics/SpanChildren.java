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

    /** Adds {@code child} to {@code parent} where this Flink can; does nothing elsewhere. */
    static void add(SpanBuilder parent, SpanBuilder child) {
        if (ADD_CHILD == null) {
            return;
        }
        try {
            ADD_CHILD.invoke(parent, child);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t); // addChild declares no checked exception
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
