package io.flinkinsight.plugin.hub;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The bookkeeping of one round of the hub's gathering. The {@link Hub} starts a round every poll interval;
 * {@link HubPoller} spends the round's budget of requests to Flink's REST API and records which requests failed and
 * which vertices it polled; {@link ClientGatherer} gathers from the client processes in the same round; the hub logs
 * the outcome. The round's number moves on the work one round does not do in full: the window over more running jobs
 * than one round polls, and the lists rediscovered every few rounds. Used on the hub's thread only.
 */
final class HubRound {

    /** Thrown when the round's request budget is spent: what is left waits for the next round. */
    static final class BudgetSpent extends Exception {
        BudgetSpent() {
            super(null, null, false, false);
        }
    }

    private final long number;
    private final long startedAt;
    private final int requestBudget;
    private final Set<String> polledVertices = new HashSet<>();
    private int requests;
    private int failures;
    private String firstFailure;

    /**
     * @param number 1 for the hub's first round, one more for each round after it
     * @param startedAt when the round started (epoch millis): the time its samples are recorded at
     * @param requestBudget most requests to Flink's REST API the round may send
     */
    HubRound(long number, long startedAt, int requestBudget) {
        this.number = number;
        this.startedAt = startedAt;
        this.requestBudget = requestBudget;
    }

    long number() {
        return number;
    }

    long startedAt() {
        return startedAt;
    }

    /** How many rounds after {@code earlierRound} this one is. */
    long roundsSince(long earlierRound) {
        return number - earlierRound;
    }

    /**
     * The items this round polls: all of them when at most {@code size}, else {@code size} of them in a window that
     * moves on by {@code size} every round, wrapping around, so every item gets its turn.
     */
    <T> List<T> window(List<T> items, int size) {
        if (items.size() <= size) {
            return items;
        }
        List<T> window = new ArrayList<>(size);
        int start = (int) ((number - 1) * size % items.size());
        for (int i = 0; i < size; i++) {
            window.add(items.get((start + i) % items.size()));
        }
        return window;
    }

    /** Spends one request of the budget before it is sent. */
    void spendRequest() throws BudgetSpent {
        if (requests >= requestBudget) {
            throw new BudgetSpent();
        }
        requests++;
    }

    /** A request of this round failed; the first failure is kept for the log. */
    void requestFailed(String request, Exception cause) {
        failures++;
        if (firstFailure == null) {
            firstFailure = request + ": " + cause;
        }
    }

    /** The round polled the vertex {@code jobAndVertexId}, whether its requests succeeded or not. */
    void vertexPolled(String jobAndVertexId) {
        polledVertices.add(jobAndVertexId);
    }

    Set<String> polledVertices() {
        return polledVertices;
    }

    /** Requests spent so far. */
    int requests() {
        return requests;
    }

    /** Requests that failed so far. */
    int failures() {
        return failures;
    }

    /** The first failed request and why, or null. */
    String firstFailure() {
        return firstFailure;
    }
}
