package io.flinkinsight.client.flink2;

import org.junit.jupiter.api.Test;

import java.io.File;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.Arrays;
import java.util.Objects;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The probes against the Flink API jars of 1.20.3, 2.0.0 and 2.3.0 (copied to {@code
 * target/flink-api/<version>} by the build), loaded in a class loader of their own, and against the
 * Flink on the test class path (the build's).
 */
class Flink2CapabilitiesTest {

    @Test
    void flink20HasNoRestClientOnASharedLoopButTheHostConstructorAndTheOldReporterSetups()
            throws Exception {
        try (URLClassLoader flink = flinkApi("2.0.0")) {
            Flink2Capabilities probed = Flink2Capabilities.probe(flink);

            assertThat(probed.flink2()).isTrue();
            assertThat(probed.restClientOnSharedLoop()).isFalse();
            assertThat(probed.restClientWithHost()).isNotNull();
            assertThat(probed.restClientWithHost().getDeclaringClass().getClassLoader())
                    .isSameAs(flink);
            assertThat(probed.clusterClientOnSharedLoop()).isFalse();
            assertThat(probed.reporterSetupBuilder()).isFalse();
            assertThat(probed.reporterSetups()).isTrue();
            assertThat(probed.describe())
                    .startsWith("Flink 2.0 API")
                    .contains("RestClient on a shared event loop")
                    .contains("event reporters");
        }
    }

    @Test
    void flink23HasEverythingTheClientUses() throws Exception {
        try (URLClassLoader flink = flinkApi("2.3.0")) {
            Flink2Capabilities probed = Flink2Capabilities.probe(flink);

            assertThat(probed.flink2()).isTrue();
            assertThat(probed.restClientOnSharedLoop()).isTrue();
            assertThat(probed.restClientWithHost()).isNull();
            assertThat(probed.clusterClientOnSharedLoop()).isTrue();
            assertThat(probed.reporterSetupBuilder()).isTrue();
            assertThat(probed.describe()).isEqualTo("Flink 2.1+ API: everything the client uses");
        }
    }

    @Test
    void flink120IsNotThisJarsLine() throws Exception {
        try (URLClassLoader flink = flinkApi("1.20.3")) {
            Flink2Capabilities probed = Flink2Capabilities.probe(flink);

            assertThat(probed.flink2()).isFalse();
            assertThat(probed.describe())
                    .startsWith("not a Flink 2.x API")
                    .contains("interactive-client-flink1");
        }
    }

    @Test
    void theBuildsFlinkIsProbedOnceFromTheClassesThatLoadedThisJar() {
        Flink2Capabilities loaded = Flink2Capabilities.loaded();

        assertThat(loaded).isSameAs(Flink2Capabilities.loaded());
        assertThat(loaded.flink2()).isTrue();
        assertThat(loaded.restClientOnSharedLoop()).isTrue();
        assertThat(loaded.clusterClientOnSharedLoop()).isTrue();
        assertThat(loaded.reporterSetupBuilder()).isTrue();
    }

    /** Only the JDK as parent: every Flink class comes from that version's jars. */
    private static URLClassLoader flinkApi(String version) throws Exception {
        File dir = new File("target/flink-api/" + version);
        File[] jars =
                Objects.requireNonNull(
                        dir.listFiles((d, name) -> name.endsWith(".jar")),
                        "no "
                                + dir
                                + ": the build copies Flink's API jars there (maven-dependency-plugin)");
        assertThat(jars).hasSize(8);
        URL[] urls =
                Arrays.stream(jars)
                        .map(
                                jar -> {
                                    try {
                                        return jar.toURI().toURL();
                                    } catch (Exception e) {
                                        throw new IllegalStateException(e);
                                    }
                                })
                        .toArray(URL[]::new);
        return new URLClassLoader("flink-" + version, urls, ClassLoader.getPlatformClassLoader());
    }
}
