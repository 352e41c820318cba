package io.flinkinsight.plugin.index;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;

/**
 * All metrics sharing one Prometheus name (e.g. one operator metric across subtasks): the name,
 * HELP and TYPE, and the members in registration order. Writers read an immutable member array that
 * is rebuilt only after a change.
 */
public final class MetricFamily {

    private static final RegisteredMetric[] NONE = new RegisteredMetric[0];

    private final String name;
    private final String help;
    private final String logicalScope;
    private final MetricKind kind;
    private final byte[] nameBytes;
    private final byte[] helpBytes;
    private final byte[] openMetricsHelpBytes;
    private final Object lock;

    /** Keyed by the rendered labels; guarded by {@link #lock} (the index's lock). */
    private final LinkedHashMap<String, RegisteredMetric> members = new LinkedHashMap<>();

    private volatile RegisteredMetric[] snapshot = NONE;

    MetricFamily(String name, String help, String logicalScope, MetricKind kind, Object lock) {
        this.name = name;
        this.help = help;
        this.logicalScope = logicalScope;
        this.kind = kind;
        this.lock = lock;
        this.nameBytes = name.getBytes(StandardCharsets.UTF_8);
        this.helpBytes = escapeHelp(help, false).getBytes(StandardCharsets.UTF_8);
        this.openMetricsHelpBytes = escapeHelp(help, true).getBytes(StandardCharsets.UTF_8);
    }

    /** Text 0.0.4 escapes backslash and newline in HELP; OpenMetrics also the double quote. */
    static String escapeHelp(String help, boolean openMetrics) {
        StringBuilder sb = new StringBuilder(help.length() + 8);
        for (int i = 0; i < help.length(); i++) {
            char c = help.charAt(i);
            switch (c) {
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '"' -> sb.append(openMetrics ? "\\\"" : "\"");
                default -> sb.append(c);
            }
        }
        return sb.toString();
    }

    /** UTF-8 of {@link #escapeHelp}. */
    public static byte[] escapeHelpBytes(String help, boolean openMetrics) {
        return escapeHelp(help, openMetrics).getBytes(StandardCharsets.UTF_8);
    }

    public String name() {
        return name;
    }

    public String help() {
        return help;
    }

    public String logicalScope() {
        return logicalScope;
    }

    public MetricKind kind() {
        return kind;
    }

    /** UTF-8 of the name; never modify. */
    public byte[] nameBytes() {
        return nameBytes;
    }

    /** Escaped HELP text for text 0.0.4 or OpenMetrics; never modify. */
    public byte[] helpBytes(boolean openMetrics) {
        return openMetrics ? openMetricsHelpBytes : helpBytes;
    }

    /** The members at this moment, in registration order; the array is shared: never modify. */
    public RegisteredMetric[] members() {
        RegisteredMetric[] s = snapshot;
        if (s != null) {
            return s;
        }
        synchronized (lock) {
            if (snapshot == null) {
                snapshot = members.isEmpty() ? NONE : members.values().toArray(NONE);
            }
            return snapshot;
        }
    }

    /** Adds or replaces (the newest registration of a series wins); caller holds the lock. */
    void put(RegisteredMetric metric) {
        RegisteredMetric previous = members.put(metric.labels().rendered(), metric);
        metric.shadowed = previous;
        snapshot = null;
    }

    /** The current registration of the series with these labels; caller holds the lock. */
    RegisteredMetric get(LabelSet labels) {
        return members.get(labels.rendered());
    }

    /**
     * Removes the registration of {@code metric} under these labels; an older registration of the
     * same series, if any, becomes visible again. Caller holds the lock. Returns true when
     * something was removed.
     */
    boolean remove(LabelSet labels, Object metric) {
        String key = labels.rendered();
        RegisteredMetric head = members.get(key);
        if (head == null) {
            return false;
        }
        if (head.metric() == metric) {
            if (head.shadowed == null) {
                members.remove(key);
            } else {
                members.put(key, head.shadowed);
            }
            snapshot = null;
            return true;
        }
        for (RegisteredMetric prev = head; prev.shadowed != null; prev = prev.shadowed) {
            if (prev.shadowed.metric() == metric) {
                prev.shadowed = prev.shadowed.shadowed;
                return true; // a shadowed registration is not in the snapshot
            }
        }
        return false;
    }

    /** Caller holds the lock. */
    boolean isEmpty() {
        return members.isEmpty();
    }

    @Override
    public String toString() {
        return name + " (" + kind + ")";
    }
}
