package io.flinkinsight.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The TCP ports of one cluster: the ones the builder fixed, and free loopback ports for the rest.
 *
 * @param rest the REST port of the first JobManager ({@link Role#JOBMANAGER})
 * @param rpc the RPC port of the first JobManager
 * @param zooKeeper the ZooKeeper server's client port, 0 without high availability
 * @param jobManagerRest the REST port of each JobManager, by index ({@link Role#jobManager(int)})
 * @param jobManagerRpc the RPC port of each JobManager, by index
 */
public record ClusterPorts(
        int rest,
        int rpc,
        int gateway,
        int zooKeeper,
        List<Integer> jobManagerRest,
        List<Integer> jobManagerRpc) {

    public ClusterPorts {
        jobManagerRest = List.copyOf(jobManagerRest);
        jobManagerRpc = List.copyOf(jobManagerRpc);
    }

    /** The ports of a cluster with one JobManager and no ZooKeeper. */
    public ClusterPorts(int rest, int rpc, int gateway) {
        this(rest, rpc, gateway, 0, List.of(rest), List.of(rpc));
    }

    /**
     * Keeps the non-zero ports of the spec (they are the first JobManager's) and picks distinct
     * free ports on 127.0.0.1 for the others, the standby JobManagers' and ZooKeeper's included.
     */
    public static ClusterPorts resolve(ClusterSpec spec) {
        Set<Integer> taken = new HashSet<>();
        taken.add(spec.restPort());
        taken.add(spec.rpcPort());
        taken.add(spec.gatewayPort());
        int rest = spec.restPort() != 0 ? spec.restPort() : freePort(taken);
        int rpc = spec.rpcPort() != 0 ? spec.rpcPort() : freePort(taken);
        int gateway = spec.gatewayPort() != 0 ? spec.gatewayPort() : freePort(taken);
        List<Integer> jobManagerRest = new ArrayList<>(List.of(rest));
        List<Integer> jobManagerRpc = new ArrayList<>(List.of(rpc));
        for (int i = 1; i < spec.jobManagers(); i++) {
            jobManagerRest.add(freePort(taken));
            jobManagerRpc.add(freePort(taken));
        }
        int zooKeeper = spec.zooKeeperHa() ? freePort(taken) : 0;
        return new ClusterPorts(rest, rpc, gateway, zooKeeper, jobManagerRest, jobManagerRpc);
    }

    /**
     * The ports of JobManager {@code index}, as {@code -D} options on its command line: they win
     * over config.yaml.
     */
    List<String> jobManagerDynamicProperties(int index, boolean highAvailability) {
        // "-D", "key=value" as BashJavaUtils prints them
        List<String> properties =
                new ArrayList<>(
                        List.of(
                                "-D", "rest.port=" + jobManagerRest.get(index),
                                "-D", "jobmanager.rpc.port=" + jobManagerRpc.get(index)));
        if (highAvailability) {
            // with HA, the JobManager binds its RPC service to this option, not to
            // jobmanager.rpc.port
            properties.addAll(
                    List.of("-D", "high-availability.jobmanager.port=" + jobManagerRpc.get(index)));
        }
        return properties;
    }

    /**
     * A port that was free a moment ago; another process may still take it before Flink binds it.
     */
    static int freePort(Set<Integer> taken) {
        for (int attempt = 0; attempt < 20; attempt++) {
            try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                int port = socket.getLocalPort();
                if (taken.add(port)) {
                    return port;
                }
            } catch (IOException e) {
                throw new UncheckedIOException(
                        "Cannot open a loopback socket to find a free port", e);
            }
        }
        throw new IllegalStateException("No distinct free port found in 20 attempts");
    }
}
