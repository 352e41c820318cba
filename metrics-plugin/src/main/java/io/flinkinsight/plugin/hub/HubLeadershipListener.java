package io.flinkinsight.plugin.hub;

/**
 * Told by the {@link Hub} when this JobManager gains or loses the leadership of its cluster (see
 * {@link Leadership}): the place for what only the leader does besides polling, e.g. restoring the
 * previous leader's history before the first round and writing it while leading.
 *
 * <p>Both calls run on the hub's thread, in turn ({@code gained}, {@code lost}, {@code gained},
 * ...), between rounds: {@link #gainedLeadership} before the first round as leader, {@link
 * #lostLeadership} before the first round that is skipped, so no round runs outside the pair. They
 * may take time (the rounds wait), must not block without bound, and what they throw is logged and
 * does not stop the hub. Not called at the hub's close: whoever owns the listener closes it after
 * the hub.
 */
public interface HubLeadershipListener {

    /** The listener that does nothing. */
    HubLeadershipListener NONE =
            new HubLeadershipListener() {
                @Override
                public void gainedLeadership() {}

                @Override
                public void lostLeadership() {}
            };

    /** This JobManager leads now; the hub's first round as leader follows. */
    void gainedLeadership();

    /** This JobManager no longer leads; the hub polls no more until it leads again. */
    void lostLeadership();
}
