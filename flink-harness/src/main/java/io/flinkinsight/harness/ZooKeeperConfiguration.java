package io.flinkinsight.harness;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * The zoo.cfg of the one ZooKeeper server of a cluster with high availability: standalone, on
 * loopback.
 */
final class ZooKeeperConfiguration {

    /**
     * The ZooKeeper release the harness starts (the line of the client Flink 2.3 shades), recorded
     * at build time.
     */
    static final String VERSION = HarnessProperties.get("zookeeper.version");

    /**
     * A session may last up to this long: wide enough for any {@code
     * high-availability.zookeeper.client .session-timeout} a test sets (ZooKeeper would otherwise
     * cap it at 20 ticks).
     */
    static final int MAX_SESSION_TIMEOUT_MS = 120_000;

    private ZooKeeperConfiguration() {}

    /**
     * The server's jars (ZooKeeper, its jute and metrics-core), from the local Maven repository.
     */
    static List<Path> jars() {
        return Stream.of(HarnessProperties.get("zookeeper.jars").split(","))
                .map(String::trim)
                .map(Path::of)
                .toList();
    }

    static String zooCfg(Path dataDir, int clientPort) {
        return String.join(
                "\n",
                ClusterConfiguration.YAML_HEADER,
                "tickTime=500",
                "dataDir=" + dataDir.toAbsolutePath(),
                "clientPort=" + clientPort,
                "clientPortAddress=" + ClusterConfiguration.LOOPBACK,
                "maxClientCnxns=0",
                "maxSessionTimeout=" + MAX_SESSION_TIMEOUT_MS,
                "4lw.commands.whitelist=srvr",
                // the test clusters are short-lived: no snapshot purging needed, but keep the data
                // dir small
                "autopurge.snapRetainCount=3",
                "");
    }
}
