package io.flinkinsight.plugin.hub;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;

import java.io.IOException;

/**
 * The bookkeeping of one round of the hub's gathering. The {@link Hub} starts a round every poll
 * interval; {@link HubPoller} spends the round's budget of requests to Flink's REST API through
 * {@link #get} and the round counts which requests failed; {@link ClientGatherer} gathers from the
 * client processes in the same round; the hub logs the outcome. The round's number spaces out the
 * work not done every round (lists rediscovered every few rounds). Used on the hub's thread only.
 */
final class HubRound {

    /** Thrown when the round's request budget is spent: what is left waits for the next round. */
    static final class BudgetSpent extends Exception {
        BudgetSpent() {
            super(null, null, false, false);
        }
    }

    /** What a 404 means to the caller of {@link #get}. */
    enum NotFound {
        /** A failure like any other: counted, answered null. */
        FAILURE,
        /**
         * An answer (e.g. "checkpointing is not enabled"): answered as a {@link MissingNode}, not
         * counted.
         */
        ANSWER
    }

    private final long number;
    private final long startedAt;
    private final int requestBudget;
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
     * Spends one request of the budget on {@code GET pathAndQuery}: the parsed body, or null when
     * the request failed (counted here; the caller tries again in a later round). A 404 is a
     * failure or an answer as {@code notFound} says.
     *
     * @throws BudgetSpent before sending, when the budget is spent
     */
    JsonNode get(RestSource rest, String pathAndQuery, NotFound notFound)
            throws InterruptedException, BudgetSpent {
        spendRequest();
        try {
            return rest.get(pathAndQuery);
        } catch (RestStatusException e) {
            if (notFound == NotFound.ANSWER && e.status() == 404) {
                return MissingNode.getInstance();
            }
            requestFailed("GET " + pathAndQuery, e);
            return null;
        } catch (IOException | RuntimeException e) {
            requestFailed("GET " + pathAndQuery, e);
            return null;
        }
    }

    /** {@link #get} where a 404 is a failure like any other. */
    JsonNode get(RestSource rest, String pathAndQuery) throws InterruptedException, BudgetSpent {
        return get(rest, pathAndQuery, NotFound.FAILURE);
    }

    /** Spends one request of the budget before it is sent. */
    private void spendRequest() throws BudgetSpent {
        if (requests >= requestBudget) {
            throw new BudgetSpent();
        }
        requests++;
    }

    /** A request of this round failed; the first failure is kept for the log. */
    private void requestFailed(String request, Exception cause) {
        failures++;
        if (firstFailure == null) {
            firstFailure = request + ": " + cause;
        }
    }

    /** Requests spent so far. */
    int requests() {
        return requests;
    }

    /** Requests the budget still allows. */
    int remaining() {
        return requestBudget - requests;
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
