package io.flinkinsight.plugin.runtime;

import org.apache.flink.configuration.JobManagerOptions;
import org.apache.flink.configuration.RestOptions;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What this host is called and what runs beside the process, for the port's access rules: its own
 * names (the {@code Host} a browser sends when asked for this host by name), and whether a
 * service-mesh sidecar forwards remote clients from loopback.
 */
final class HostNames {

    private static final Logger LOG = LoggerFactory.getLogger(HostNames.class);

    /**
     * Admin ports a sidecar listens on, on loopback: Envoy (Istio), Istio's health port, Linkerd's
     * proxy.
     */
    private static final Map<Integer, String> SIDECAR_PORTS =
            Map.of(
                    15000,
                    "Envoy (Istio) admin",
                    15021,
                    "Istio health",
                    4191,
                    "Linkerd proxy admin");

    private static final int PROBE_TIMEOUT_MILLIS = 200;

    private HostNames() {}

    /**
     * The host's name, and Flink's {@code rest.address} and {@code jobmanager.rpc.address} in
     * {@code flink}.
     */
    static List<String> own(Map<String, String> flink) {
        List<String> names = new ArrayList<>();
        try {
            names.add(InetAddress.getLocalHost().getHostName());
        } catch (IOException | RuntimeException e) {
            LOG.debug("Flink Insight: this host's name could not be read", e);
        }
        for (String key : List.of(RestOptions.ADDRESS.key(), JobManagerOptions.ADDRESS.key())) {
            String address = flink.get(key);
            if (address != null && !address.isBlank()) {
                names.add(address.trim());
            }
        }
        return names;
    }

    /** The sidecar whose admin port answers on loopback, or null. */
    static String meshSidecar() {
        for (Map.Entry<Integer, String> sidecar : SIDECAR_PORTS.entrySet()) {
            try (Socket socket = new Socket()) {
                socket.connect(
                        new InetSocketAddress(InetAddress.getLoopbackAddress(), sidecar.getKey()),
                        PROBE_TIMEOUT_MILLIS);
                return sidecar.getValue() + " on 127.0.0.1:" + sidecar.getKey();
            } catch (IOException e) {
                // nothing there
            }
        }
        return null;
    }
}
