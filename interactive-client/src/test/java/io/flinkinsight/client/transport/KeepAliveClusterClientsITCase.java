package io.flinkinsight.client.transport;

import io.flinkinsight.client.FlinkLine;
import io.flinkinsight.client.config.ChannelPoolOptions;
import io.flinkinsight.client.config.ChannelPoolSettings;
import io.flinkinsight.client.config.InteractiveClientSettings;
import io.flinkinsight.client.flink.FlinkApi;

import org.apache.flink.client.program.rest.RestClusterClient;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.IllegalConfigurationException;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.runtime.client.JobStatusMessage;
import org.apache.flink.util.concurrent.ExecutorThreadFactory;

import org.apache.flink.shaded.netty4.io.netty.channel.EventLoopGroup;
import org.apache.flink.shaded.netty4.io.netty.channel.nio.NioEventLoopGroup;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.time.Duration;
import java.util.Collection;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link KeepAliveClusterClients}: Flink's RestClusterClient on our keep-alive RestClient, and the
 * fallback.
 */
class KeepAliveClusterClientsITCase {

    private final CountingTransportListener listener = new CountingTransportListener();
    private NioEventLoopGroup sharedGroup;
    private TestingRestServer server;

    @BeforeEach
    void start() throws Exception {
        sharedGroup = new NioEventLoopGroup(2, new ExecutorThreadFactory("test-shared-io"));
        server = new TestingRestServer();
    }

    @AfterEach
    void stop() throws Exception {
        server.close();
        sharedGroup.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(10, TimeUnit.SECONDS);
    }

    private Configuration clusterConfiguration() {
        Configuration conf = new Configuration();
        conf.set(RestOptions.ADDRESS, "127.0.0.1");
        conf.set(RestOptions.PORT, server.port());
        conf.set(RestOptions.RETRY_MAX_ATTEMPTS, 0);
        return conf;
    }

    @Test
    void clusterClientRequestsRideOneKeptAliveConnection() throws Exception {
        PooledTransport transport =
                KeepAliveClusterClients.create(
                        clusterConfiguration(),
                        sharedGroup,
                        ChannelPoolSettings.defaults(),
                        listener,
                        FlinkLine.get());
        try {
            assertThat(transport).isInstanceOf(KeepAliveClusterClients.KeepAliveTransport.class);
            RestClusterClient<?> client = transport.clusterClient();
            for (int i = 0; i < 5; i++) {
                Collection<JobStatusMessage> jobs = client.listJobs().get(10, TimeUnit.SECONDS);
                assertThat(jobs).isEmpty();
            }
            assertThat(server.acceptedConnections()).isEqualTo(1);
            assertThat(server.requests()).isEqualTo(5);
            assertThat(listener.opened).hasValue(1);
            assertThat(listener.reused).hasValue(4);
            assertThat(listener.succeeded).hasValue(5);
        } finally {
            transport.close();
        }
    }

    @Test
    void closeIsPromptAndKeepsTheSharedEventLoop() throws Exception {
        PooledTransport transport =
                KeepAliveClusterClients.create(
                        clusterConfiguration(),
                        sharedGroup,
                        ChannelPoolSettings.defaults(),
                        listener,
                        FlinkLine.get());
        transport.clusterClient().listJobs().get(10, TimeUnit.SECONDS);

        long start = System.nanoTime();
        transport.close();
        long closeMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

        assertThat(sharedGroup.isShuttingDown()).isFalse();
        Waiting.until("the server saw the connection close", () -> server.openConnections() == 0);
        Waiting.until(
                "our threads ended",
                () ->
                        Thread.getAllStackTraces().keySet().stream()
                                .noneMatch(t -> t.getName().startsWith("flink-insight-rest")));
        assertThat(
                        ((KeepAliveClusterClients.KeepAliveTransport) transport)
                                .restClient()
                                .openChannelCount())
                .isZero();
        // reported, not asserted (timings are noisy): Flink's own close on a shared loop takes
        // about 5 s
        System.out.println(
                "KeepAliveClusterClientsITCase: transport.close() took " + closeMillis + " ms");
    }

    @Test
    void badPoolOptionsNameTheKey() {
        Configuration conf = new Configuration();
        conf.setString(ChannelPoolOptions.MAX_CONNECTIONS.key(), "0");
        assertThatThrownBy(() -> InteractiveClientSettings.fromConfiguration(conf))
                .isInstanceOf(IllegalConfigurationException.class)
                .hasMessageContaining(ChannelPoolOptions.MAX_CONNECTIONS.key())
                .hasMessageContaining("at least 1");

        Configuration zeroIdle = new Configuration();
        zeroIdle.setString(ChannelPoolOptions.IDLE_TIMEOUT.key(), "0 ms");
        assertThatThrownBy(() -> InteractiveClientSettings.fromConfiguration(zeroIdle))
                .isInstanceOf(IllegalConfigurationException.class)
                .hasMessageContaining(ChannelPoolOptions.IDLE_TIMEOUT.key());

        Configuration garbage = new Configuration();
        garbage.setString(ChannelPoolOptions.ACQUIRE_TIMEOUT.key(), "soon");
        assertThatThrownBy(() -> InteractiveClientSettings.fromConfiguration(garbage))
                .isInstanceOf(IllegalConfigurationException.class)
                .hasMessageContaining(ChannelPoolOptions.ACQUIRE_TIMEOUT.key());

        assertThat(ChannelPoolSettings.defaults())
                .isEqualTo(
                        new ChannelPoolSettings(
                                32, Duration.ofSeconds(10), Duration.ofSeconds(30)));
    }

    /**
     * Loaded by a class loader of its own (as from a user jar or plugins/), our same-package helper
     * cannot reach RestClusterClient's package-private constructor; the transport falls back to
     * Flink's public one and works.
     */
    @Test
    void fallsBackToFlinksOwnClientWhenTheConstructorIsOutOfReach() throws Exception {
        URL ourClasses =
                KeepAliveClusterClients.class.getProtectionDomain().getCodeSource().getLocation();
        try (ChildFirstLoader loader =
                new ChildFirstLoader(ourClasses, getClass().getClassLoader())) {
            Class<?> factory = loader.loadClass(KeepAliveClusterClients.class.getName());
            assertThat(factory.getClassLoader()).isSameAs(loader);
            Class<?> settingsClass = loader.loadClass(ChannelPoolSettings.class.getName());
            Class<?> listenerClass = loader.loadClass(TransportListener.class.getName());
            Object settings = settingsClass.getMethod("defaults").invoke(null);
            Object none = listenerClass.getField("NONE").get(null);
            Class<?> transportClass = loader.loadClass(PooledTransport.class.getName());
            Class<?> apiClass = loader.loadClass(FlinkApi.class.getName());
            Object flink =
                    loader.loadClass(FlinkLine.class.getName()).getMethod("get").invoke(null);

            Object transport =
                    factory.getMethod(
                                    "create",
                                    Configuration.class,
                                    EventLoopGroup.class,
                                    settingsClass,
                                    listenerClass,
                                    apiClass)
                            .invoke(
                                    null,
                                    clusterConfiguration(),
                                    sharedGroup,
                                    settings,
                                    none,
                                    flink);
            try {
                assertThat(transport.getClass().getSimpleName()).isEqualTo("StockTransport");
                RestClusterClient<?> client =
                        (RestClusterClient<?>)
                                transportClass.getMethod("clusterClient").invoke(transport);
                client.listJobs().get(10, TimeUnit.SECONDS);
                client.listJobs().get(10, TimeUnit.SECONDS);
                // Flink's own RestClient: a connection per request
                assertThat(server.acceptedConnections()).isEqualTo(2);
            } finally {
                long start = System.nanoTime();
                transportClass.getMethod("close").invoke(transport);
                System.out.println(
                        "KeepAliveClusterClientsITCase: fallback close() returned after "
                                + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)
                                + " ms");
            }
        }
    }

    /**
     * Defines our classes itself, like a user-code class loader; everything else comes from the
     * parent.
     */
    private static final class ChildFirstLoader extends URLClassLoader {
        ChildFirstLoader(URL classes, ClassLoader parent) {
            super(new URL[] {classes}, parent);
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            boolean ours =
                    name.startsWith("io.flinkinsight.client.")
                            || name.equals(
                                    "org.apache.flink.client.program.rest.InsightRestClusterClientAccess");
            if (!ours) {
                return super.loadClass(name, resolve);
            }
            synchronized (getClassLoadingLock(name)) {
                Class<?> loaded = findLoadedClass(name);
                return loaded != null ? loaded : findClass(name);
            }
        }

        @Override
        public void close() throws IOException {
            super.close();
        }
    }
}
