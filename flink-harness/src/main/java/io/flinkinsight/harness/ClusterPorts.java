package io.flinkinsight.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.HashSet;
import java.util.Set;

/** The TCP ports of one cluster: the ones the builder fixed, and free loopback ports for the rest. */
public record ClusterPorts(int rest, int rpc, int gateway) {

    /** Keeps the non-zero ports of the spec and picks distinct free ports on 127.0.0.1 for the others. */
    public static ClusterPorts resolve(ClusterSpec spec) {
        Set<Integer> taken = new HashSet<>();
        taken.add(spec.restPort());
        taken.add(spec.rpcPort());
        taken.add(spec.gatewayPort());
        int rest = spec.restPort() != 0 ? spec.restPort() : freePort(taken);
        int rpc = spec.rpcPort() != 0 ? spec.rpcPort() : freePort(taken);
        int gateway = spec.gatewayPort() != 0 ? spec.gatewayPort() : freePort(taken);
        return new ClusterPorts(rest, rpc, gateway);
    }

    /** A port that was free a moment ago; another process may still take it before Flink binds it. */
    static int freePort(Set<Integer> taken) {
        for (int attempt = 0; attempt < 20; attempt++) {
            try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                int port = socket.getLocalPort();
                if (taken.add(port)) {
                    return port;
                }
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot open a loopback socket to find a free port", e);
            }
        }
        throw new IllegalStateException("No distinct free port found in 20 attempts");
    }
}
