package io.flinkinsight.plugin.hub;

import io.flinkinsight.plugin.index.ClientContract;
import io.flinkinsight.plugin.store.SeriesKey;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Which series the client processes may write into the hub's history: a client keeps those it was
 * let write, and new ones are let in while it has fewer than {@link #MAX_FIGURES_PER_CLIENT} and
 * all clients fewer than {@link #MAX_FIGURES}; so a client that makes up new labels every round
 * cannot push the hub's history out. Used on the hub's thread only.
 */
final class SeriesAdmission {

    /**
     * Figures (name and labels) a client may write: each of the contract's under two label sets.
     */
    static final int MAX_FIGURES_PER_CLIENT = 2 * ClientContract.get().figures().size();

    /**
     * Figures all clients together may write (a histogram is three series): bounded beside the
     * hub's own.
     */
    static final int MAX_FIGURES = 2048;

    /**
     * A client silent this many rounds gives its admitted figures back (its series age out of the
     * history).
     */
    static final long FORGET_AFTER_ROUNDS = 2 * ClientGatherer.RESCAN_EVERY_POLLS;

    private final Map<String, Set<SeriesKey>> perClient = new HashMap<>();
    private final Map<String, Long> lastSeenRound = new HashMap<>();
    private long round;
    private int total;

    /**
     * Whether the client at {@code clientLabel} may write {@code key}; if so, it keeps that place.
     */
    boolean admit(String clientLabel, SeriesKey key) {
        lastSeenRound.put(clientLabel, round);
        Set<SeriesKey> own = perClient.computeIfAbsent(clientLabel, c -> new HashSet<>());
        if (own.contains(key)) {
            return true;
        }
        if (own.size() >= MAX_FIGURES_PER_CLIENT || total >= MAX_FIGURES) {
            return false;
        }
        own.add(key);
        total++;
        return true;
    }

    /**
     * A new round: clients that wrote nothing for {@link #FORGET_AFTER_ROUNDS} rounds give their
     * places back.
     */
    void forgetUnseen(long newRound) {
        round = newRound;
        lastSeenRound
                .entrySet()
                .removeIf(
                        seen -> {
                            if (newRound - seen.getValue() < FORGET_AFTER_ROUNDS) {
                                return false;
                            }
                            Set<SeriesKey> own = perClient.remove(seen.getKey());
                            total -= own == null ? 0 : own.size();
                            return true;
                        });
    }
}
