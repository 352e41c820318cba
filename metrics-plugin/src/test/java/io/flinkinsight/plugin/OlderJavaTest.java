package io.flinkinsight.plugin;

import io.flinkinsight.plugin.events.InsightEventReporterFactory;
import io.flinkinsight.plugin.metrics.InsightMetricReporterFactory;
import io.flinkinsight.plugin.traces.InsightTraceReporterFactory;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.plugin.PluginUtils;
import org.apache.flink.runtime.metrics.ReporterSetup;
import org.apache.flink.runtime.metrics.ReporterSetupBuilder;
import org.apache.flink.runtime.metrics.filter.DefaultReporterFilters;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * On a JVM older than 17 (Flink 1.20 runs on 8 and 11, 2.x on 11) the plugin must not stop Flink:
 * Flink loads every factory a plugin lists whether configured or not, and an {@code
 * UnsupportedClassVersionError} from that loading escapes Flink's reporter set-up. So what Flink
 * loads is built for Java 8 and refuses to create a reporter, with one message, on an older JVM;
 * Flink logs it and carries on.
 */
class OlderJavaTest {

    private static final String[] SERVICES = {
        "org.apache.flink.metrics.reporter.MetricReporterFactory",
        "org.apache.flink.traces.reporter.TraceReporterFactory",
        "org.apache.flink.events.reporter.EventReporterFactory",
    };
    private static final int JAVA_8_CLASS_FILE = 52;

    private final String javaVersion = System.getProperty("java.specification.version");

    @AfterEach
    void restoreJavaVersion() {
        System.setProperty("java.specification.version", javaVersion);
    }

    @Test
    void whatFlinkLoadsFromTheServicesFilesIsBuiltForJava8() throws IOException {
        List<String> loaded = new ArrayList<>();
        for (String service : SERVICES) {
            loaded.addAll(providers(service));
        }
        loaded.add(JavaVersionCheck.class.getName());

        assertThat(loaded).hasSize(SERVICES.length + 1);
        for (String className : loaded) {
            assertThat(classFileVersion(className))
                    .as(className)
                    .isLessThanOrEqualTo(JAVA_8_CLASS_FILE);
        }
    }

    @Test
    void onAnOlderJavaCreatingAReporterFailsWithOneClearMessage() {
        System.setProperty("java.specification.version", "11");

        assertThatThrownBy(
                        () ->
                                new InsightMetricReporterFactory()
                                        .createMetricReporter(new Properties()))
                .isInstanceOf(UnsupportedOperationException.class)
                .hasMessageContaining("needs Java 17")
                .hasMessageContaining("Java 11")
                .hasMessageContaining("metrics.reporter.insight is left out");
        assertThatThrownBy(
                        () ->
                                new InsightTraceReporterFactory()
                                        .createTraceReporter(new Properties()))
                .hasMessageContaining("traces.reporter.insight");
        assertThatThrownBy(
                        () ->
                                new InsightEventReporterFactory()
                                        .createEventReporter(new Properties()))
                .hasMessageContaining("events.reporter.insight");
    }

    @Test
    void flinksReporterSetUpCarriesOnWithoutTheReporterOnAnOlderJava() throws Exception {
        System.setProperty("java.specification.version", "11");
        Configuration config = new Configuration();
        config.setString(
                "metrics.reporter.insight.factory.class",
                InsightMetricReporterFactory.class.getName());
        config.setString("metrics.reporter.insight.port", "0");

        List<ReporterSetup> setups =
                ReporterSetupBuilder.METRIC_SETUP_BUILDER.fromConfiguration(
                        config,
                        DefaultReporterFilters::metricsFromConfiguration,
                        PluginUtils.createPluginManagerFromRootFolder(config));

        assertThat(setups).isEmpty();
    }

    @Test
    void javaVersionsAreReadFromBothSpellings() {
        assertThat(JavaVersionCheck.feature("1.8")).isEqualTo(8);
        assertThat(JavaVersionCheck.feature("11")).isEqualTo(11);
        assertThat(JavaVersionCheck.feature("17")).isEqualTo(17);
        assertThat(JavaVersionCheck.feature("")).isZero();
    }

    private static List<String> providers(String service) throws IOException {
        List<String> out = new ArrayList<>();
        try (InputStream in =
                OlderJavaTest.class.getResourceAsStream("/META-INF/services/" + service)) {
            assertThat(in).as(service).isNotNull();
            BufferedReader reader =
                    new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                if (!line.isBlank() && !line.startsWith("#")) {
                    out.add(line.trim());
                }
            }
        }
        return out;
    }

    private static int classFileVersion(String className) throws IOException {
        try (InputStream in =
                OlderJavaTest.class.getResourceAsStream(
                        "/" + className.replace('.', '/') + ".class")) {
            DataInputStream data = new DataInputStream(in);
            data.readInt(); // 0xCAFEBABE
            data.readUnsignedShort(); // minor
            return data.readUnsignedShort();
        }
    }
}
