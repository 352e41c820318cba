package io.flinkinsight.plugin.store.statement;

import java.util.Comparator;
import java.util.Locale;
import java.util.Optional;

/** How {@code /api/v1/statements} sorts: the most first, then by id for a stable order. */
public enum StatementOrder {
    TOTAL(Comparator.comparingLong(StatementRow::totalMs)),
    P99(Comparator.comparingLong(StatementRow::p99Ms)),
    CALLS(Comparator.comparingLong(StatementRow::calls)),
    FAILURES(Comparator.comparingLong(StatementRow::failed));

    private final Comparator<StatementRow> most;

    StatementOrder(Comparator<StatementRow> least) {
        this.most = least.reversed().thenComparing(StatementRow::id);
    }

    Comparator<StatementRow> comparator() {
        return most;
    }

    /** The order named {@code name} (total, p99, calls, failures), if it is one. */
    public static Optional<StatementOrder> named(String name) {
        for (StatementOrder order : values()) {
            if (order.name().toLowerCase(Locale.ROOT).equals(name)) {
                return Optional.of(order);
            }
        }
        return Optional.empty();
    }
}
