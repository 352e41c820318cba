package io.flinkinsight.it.ecosystem;

import io.flinkinsight.plugin.events.InsightEventReporterFactory;
import io.flinkinsight.plugin.metrics.InsightMetricReporterFactory;
import io.flinkinsight.plugin.traces.InsightTraceReporterFactory;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What can be checked of the Kubernetes files without Kubernetes: they parse as YAML; every Insight
 * key they set is a key of the README's option table (and the factory classes are the plugin's);
 * the plugin's port is the container port named "insight" that the PodMonitor scrapes, in the Flink
 * pods and the gateway's; the Dockerfile puts the plugin under plugins/insight/ and the client
 * under lib/.
 */
class KubernetesManifestsTest {

    private static final Path DIR = Promtool.ecosystem().resolve("kubernetes");
    private static final Pattern README_KEY =
            Pattern.compile("(?m)^\\| `metrics\\.reporter\\.insight\\.([^`]+)` \\|");

    @Test
    void everyManifestParsesAndNamesItsKind() throws Exception {
        Map<String, JsonNode> kinds = manifests();
        assertThat(kinds.keySet())
                .contains(
                        "FlinkDeployment/insight-session",
                        "PodMonitor/flink-insight",
                        "Deployment/insight-sql-gateway",
                        "Service/insight-sql-gateway",
                        "ConfigMap/insight-sql-gateway-config");
    }

    @Test
    void insightKeysAreTheReadmesOptionsAndTheFactoriesThePlugins() throws Exception {
        Set<String> documented = readmeOptionKeys();
        assertThat(documented).contains("port", "http.access", "hub.clients");
        Map<String, JsonNode> all = manifests();
        Map<String, String> settings = new LinkedHashMap<>();
        flat(
                all.get("FlinkDeployment/insight-session").path("spec").path("flinkConfiguration"),
                settings);
        Map<String, String> gateway = new LinkedHashMap<>();
        flat(
                Yaml.document(
                        all.get("ConfigMap/insight-sql-gateway-config")
                                .path("data")
                                .path("config.yaml")
                                .asText()),
                gateway);
        for (Map<String, String> conf : List.of(settings, gateway)) {
            for (Map.Entry<String, String> e : conf.entrySet()) {
                String key = e.getKey();
                if (key.startsWith("metrics.reporter.insight.")
                        && !key.endsWith(".factory.class")) {
                    assertThat(documented)
                            .as("README option of %s", key)
                            .contains(key.substring("metrics.reporter.insight.".length()));
                }
                assertThat(key)
                        .as("Insight keys are under metrics.reporter.insight.*")
                        .doesNotMatch(
                                "(traces|events)\\.reporter\\.insight\\.(?!factory\\.class).*");
            }
            assertThat(conf)
                    .containsEntry(
                            "metrics.reporter.insight.factory.class",
                            InsightMetricReporterFactory.class.getName());
            assertThat(conf.get("metrics.reporter.insight.port"))
                    .as("one fixed port per pod")
                    .isEqualTo("9250");
        }
        assertThat(settings)
                .containsEntry(
                        "traces.reporter.insight.factory.class",
                        InsightTraceReporterFactory.class.getName())
                .containsEntry(
                        "events.reporter.insight.factory.class",
                        InsightEventReporterFactory.class.getName());
        assertThat(gateway).containsEntry("execution.target", "remote-interactive");
    }

    @Test
    void thePodMonitorScrapesThePortThePodsDeclare() throws Exception {
        Map<String, JsonNode> all = manifests();
        JsonNode endpoint =
                all.get("PodMonitor/flink-insight").path("spec").path("podMetricsEndpoints").get(0);
        assertThat(endpoint.path("port").asText()).isEqualTo("insight");
        assertThat(endpoint.path("path").asText()).isEqualTo("/metrics");

        JsonNode flinkContainer =
                all.get("FlinkDeployment/insight-session")
                        .path("spec")
                        .path("podTemplate")
                        .path("spec")
                        .path("containers")
                        .get(0);
        assertThat(flinkContainer.path("name").asText()).isEqualTo("flink-main-container");
        JsonNode gatewayContainer =
                all.get("Deployment/insight-sql-gateway")
                        .path("spec")
                        .path("template")
                        .path("spec")
                        .path("containers")
                        .get(0);
        for (JsonNode container : List.of(flinkContainer, gatewayContainer)) {
            assertThat(portNamed(container, "insight"))
                    .as("container port 'insight'")
                    .isEqualTo(9250);
        }
        List<String> selected = new ArrayList<>();
        all.get("PodMonitor/flink-insight")
                .path("spec")
                .path("selector")
                .path("matchExpressions")
                .get(0)
                .path("values")
                .forEach(v -> selected.add(v.asText()));
        assertThat(selected)
                .containsExactlyInAnyOrder(
                        "insight-session",
                        all.get("Deployment/insight-sql-gateway")
                                .path("spec")
                                .path("template")
                                .path("metadata")
                                .path("labels")
                                .path("app")
                                .asText());
    }

    @Test
    void theDockerfileAddsThePluginAndTheClient() throws Exception {
        String dockerfile = Files.readString(DIR.resolve("Dockerfile"));
        assertThat(dockerfile)
                .containsPattern("(?m)^FROM \\$\\{FLINK_IMAGE}$")
                .contains(
                        "ARG FLINK_IMAGE=flink:"
                                + System.getProperty("insight.flink.primary-version")
                                + "-java17")
                .containsPattern(
                        "COPY .*metrics-plugin/target/metrics-plugin-[^ ]+\\.jar /opt/flink/plugins/insight/")
                .containsPattern(
                        "COPY .*interactive-client/target/interactive-client-[^ ]+\\.jar /opt/flink/lib/");
    }

    private static int portNamed(JsonNode container, String name) {
        for (JsonNode port : container.path("ports")) {
            if (name.equals(port.path("name").asText())) {
                return port.path("containerPort").asInt();
            }
        }
        return -1;
    }

    private static Map<String, JsonNode> manifests() throws Exception {
        Map<String, JsonNode> out = new LinkedHashMap<>();
        try (var files = Files.list(DIR)) {
            for (Path file : files.filter(p -> p.toString().endsWith(".yaml")).sorted().toList()) {
                for (JsonNode doc : Yaml.documents(Files.readString(file))) {
                    assertThat(doc.path("apiVersion").asText())
                            .as("apiVersion in %s", file)
                            .isNotEmpty();
                    out.put(
                            doc.path("kind").asText()
                                    + "/"
                                    + doc.path("metadata").path("name").asText(),
                            doc);
                }
            }
        }
        return out;
    }

    /** Flink configuration as flat keys, whether written flat or nested. */
    private static void flat(JsonNode node, Map<String, String> out) {
        flat("", node, out);
    }

    private static void flat(String prefix, JsonNode node, Map<String, String> out) {
        if (node.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                flat(prefix.isEmpty() ? e.getKey() : prefix + "." + e.getKey(), e.getValue(), out);
            }
        } else {
            out.put(prefix, node.asText());
        }
    }

    private static Set<String> readmeOptionKeys() throws Exception {
        String readme =
                Files.readString(Path.of(System.getProperty("insight.readme", "../README.md")));
        String table =
                readme.substring(
                        readme.indexOf("<!-- options:start -->"),
                        readme.indexOf("<!-- options:end -->"));
        Set<String> keys = new LinkedHashSet<>();
        Matcher m = README_KEY.matcher(table);
        while (m.find()) {
            keys.add(m.group(1));
        }
        return keys;
    }
}
