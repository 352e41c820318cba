package io.flinkinsight.plugin.hub;

import io.flinkinsight.plugin.hub.HubRound.BudgetSpent;
import io.flinkinsight.plugin.store.SeriesStore;

import org.apache.flink.annotation.VisibleForTesting;

import com.fasterxml.jackson.databind.JsonNode;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * Reads the TaskManagers from Flink's REST API: their list ({@code /taskmanagers}, counted into
 * {@link HubSeries#TM_COUNT}) and each one's CPU load and heap ({@code /taskmanagers/:id/metrics}).
 * Which of them are read in a round is the {@link HubPoller}'s to say. Runs on the hub's thread
 * only.
 */
final class TaskManagerReader {

    /** TaskManagers in the rotation; a longer list is cut (each costs one request per turn). */
    static final int MAX_TASK_MANAGERS = 10_000;

    static final String TM_METRICS =
            "Status.JVM.CPU.Load,Status.JVM.Memory.Heap.Used,Status.JVM.Memory.Heap.Max";

    private final RestSource rest;
    private final SeriesStore series;

    TaskManagerReader(RestSource rest, SeriesStore series) {
        this.rest = rest;
        this.series = series;
    }

    /**
     * The ids of the registered TaskManagers, at most {@value #MAX_TASK_MANAGERS}; none when the
     * request failed.
     */
    List<String> list(HubRound round) throws InterruptedException, BudgetSpent {
        JsonNode root = round.get(rest, "/taskmanagers");
        if (root == null) {
            return List.of();
        }
        List<String> ids = RestPayloads.taskManagerIds(root);
        series.record(HubSeries.of(HubSeries.TM_COUNT), round.startedAt(), ids.size());
        return ids.subList(0, Math.min(ids.size(), MAX_TASK_MANAGERS));
    }

    /** Records one TaskManager's figures, those it reports. */
    void read(String tmId, HubRound round) throws InterruptedException, BudgetSpent {
        JsonNode root =
                round.get(
                        rest, "/taskmanagers/" + pathSegment(tmId) + "/metrics?get=" + TM_METRICS);
        if (root == null) {
            return;
        }
        long now = round.startedAt();
        Map<String, Double> values = RestPayloads.values(root);
        record(HubSeries.TM_CPU, values.get("Status.JVM.CPU.Load"), tmId, now);
        record(HubSeries.TM_HEAP_USED, values.get("Status.JVM.Memory.Heap.Used"), tmId, now);
        record(HubSeries.TM_HEAP_MAX, values.get("Status.JVM.Memory.Heap.Max"), tmId, now);
    }

    private void record(String name, Double value, String tmId, long now) {
        if (value != null) {
            series.record(HubSeries.of(name, "tm_id", tmId), now, value);
        }
    }

    /**
     * TaskManager ids look like {@code 127.0.0.1:35827-4d5e1a}; anything outside a safe set is
     * escaped.
     */
    @VisibleForTesting
    static String pathSegment(String s) {
        StringBuilder out = new StringBuilder(s.length());
        for (char c : s.toCharArray()) {
            if (Character.isLetterOrDigit(c) && c < 128
                    || c == '.'
                    || c == '-'
                    || c == '_'
                    || c == ':') {
                out.append(c);
            } else {
                for (byte b : String.valueOf(c).getBytes(StandardCharsets.UTF_8)) {
                    out.append('%').append(String.format("%02X", b & 0xff));
                }
            }
        }
        return out.toString();
    }
}
