package io.flinkinsight.plugin.hub;

import io.flinkinsight.plugin.InsightOptions;
import io.flinkinsight.plugin.durable.DurableSettings;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * How the JobManager's hub gathers, resolved from the reporter options by the runtime.
 *
 * @param enabled whether a JobManager runs the hub at all
 * @param flinkRestUrl the JobManager's REST base URL, or empty to derive it from Flink's
 *     configuration
 * @param pollInterval how often the hub polls Flink's REST API
 * @param clients the client processes' Insight endpoints the hub gathers the interactive client's
 *     figures from
 * @param clientsOverHttps whether their ports serve HTTPS (http.ssl.enabled, which a cluster sets
 *     for all processes)
 * @param stores where the hub writes its stores and reads them back ({@code stores.dir*})
 */
public record HubSettings(
        boolean enabled,
        String flinkRestUrl,
        Duration pollInterval,
        List<ClientTarget> clients,
        boolean clientsOverHttps,
        DurableSettings stores) {

    public HubSettings(
            boolean enabled,
            String flinkRestUrl,
            Duration pollInterval,
            List<ClientTarget> clients) {
        this(enabled, flinkRestUrl, pollInterval, clients, false, DurableSettings.defaults());
    }

    public HubSettings {
        Objects.requireNonNull(pollInterval, "pollInterval");
        if (pollInterval.isZero() || pollInterval.isNegative()) {
            throw new IllegalArgumentException("pollInterval must be positive");
        }
        flinkRestUrl = flinkRestUrl == null ? "" : flinkRestUrl.trim();
        clients = clients == null ? List.of() : List.copyOf(clients);
        Objects.requireNonNull(stores, "stores");
    }

    /** The settings the options' defaults ({@link InsightOptions}) give. */
    public static HubSettings defaults() {
        return new HubSettings(
                InsightOptions.HUB_ENABLED.defaultValue(),
                InsightOptions.HUB_FLINK_REST_URL.defaultValue(),
                InsightOptions.HUB_POLL_INTERVAL.defaultValue(),
                ClientTarget.parseList(InsightOptions.HUB_CLIENTS.defaultValue()));
    }
}
