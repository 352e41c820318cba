package io.flinkinsight.plugin.runtime;

import io.flinkinsight.plugin.InsightOptions;
import io.flinkinsight.plugin.ProcessRole;
import io.flinkinsight.plugin.hub.ClientTarget;
import io.flinkinsight.plugin.hub.HubSettings;
import io.flinkinsight.plugin.store.StoreSettings;

import org.apache.flink.configuration.ConfigOption;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class InsightConfigurationTest {

    private static final String PREFIX = InsightOptions.USER_PREFIX;

    private static InsightConfiguration parse(String key, String value) {
        Properties p = new Properties();
        p.setProperty(key, value);
        return InsightConfiguration.from(p, PREFIX);
    }

    @Test
    void defaultsAreTheDocumentedOnes() {
        InsightConfiguration c = InsightConfiguration.defaults();

        assertThat(c.ports().toString()).isEqualTo("9250-9260");
        assertThat(c.bindHost()).isEqualTo("0.0.0.0");
        assertThat(c.historyRetention()).isEqualTo(Duration.ofHours(1));
        assertThat(c.historyResolution()).isEqualTo(Duration.ofSeconds(5));
        assertThat(c.historyMaxSeries()).isEqualTo(20000);
        assertThat(c.checkpointsMaxPerJob()).isEqualTo(1000);
        assertThat(c.jobsMax()).isEqualTo(1000);
        assertThat(c.storesMaxBytes()).isEqualTo(128L << 20);
        assertThat(c.storeSettings().checkpointBytesCap()).isEqualTo(64L << 20);
        assertThat(c.hubEnabled()).isTrue();
        assertThat(c.hubFlinkRestUrl()).isEmpty();
        assertThat(c.hubPollInterval()).isEqualTo(Duration.ofSeconds(10));
        assertThat(c.hubClients()).isEmpty();
        assertThat(c.filterLabelValueCharacters()).isTrue();
        assertThat(c.role()).as("auto").isEmpty();
        assertThat(c.jobSeriesMinAge()).isEqualTo(Duration.ofSeconds(30));
    }

    @Test
    void everyOptionHasADescriptionAndADefault() {
        for (ConfigOption<?> option : InsightOptions.all()) {
            assertThat(option.hasDefaultValue()).as(option.key()).isTrue();
            assertThat(option.description().toString()).as(option.key()).isNotBlank();
        }
        assertThat(InsightOptions.all()).extracting(ConfigOption::key).doesNotHaveDuplicates();
    }

    @Test
    void valuesAreParsed() {
        Properties p = new Properties();
        p.setProperty("port", "9300,9400-9401");
        p.setProperty("history.retention", "30 min");
        p.setProperty("history.resolution", "10s");
        p.setProperty("hub.enabled", "false");
        p.setProperty("hub.flink-rest-url", "http://127.0.0.1:8081");
        p.setProperty("role", "Client");
        InsightConfiguration c = InsightConfiguration.from(p, PREFIX);

        assertThat(c.ports().iterator()).toIterable().containsExactly(9300, 9400, 9401);
        assertThat(c.historyRetention()).isEqualTo(Duration.ofMinutes(30));
        assertThat(c.historyResolution()).isEqualTo(Duration.ofSeconds(10));
        assertThat(c.hubEnabled()).isFalse();
        assertThat(c.hubFlinkRestUrl()).isEqualTo("http://127.0.0.1:8081");
        assertThat(c.role()).contains(ProcessRole.CLIENT);
    }

    @Test
    void badPortNamesTheFullKeyAndWhatIsAccepted() {
        assertThatThrownBy(() -> parse("port", "9260-9250"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("metrics.reporter.insight.port")
                .hasMessageContaining("[0, 65535]");
        assertThatThrownBy(() -> parse("port", "70000"))
                .hasMessageContaining("metrics.reporter.insight.port");
        assertThatThrownBy(() -> parse("port", "abc"))
                .hasMessageContaining("metrics.reporter.insight.port");
    }

    @Test
    void badIntegerNamesTheFullKeyAndRange() {
        assertThatThrownBy(() -> parse("history.max-series", "0"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("metrics.reporter.insight.history.max-series")
                .hasMessageContaining("[1, 1000000]");
    }

    @Test
    void badHttpHardeningValuesNameTheKeyAndRange() {
        assertThatThrownBy(() -> parse("http.max-connections-per-address", "0"))
                .hasMessageContaining("metrics.reporter.insight.http.max-connections-per-address")
                .hasMessageContaining("[1, 10000]");
        assertThatThrownBy(() -> parse("http.request-head-timeout", "10 min"))
                .hasMessageContaining("metrics.reporter.insight.http.request-head-timeout")
                .hasMessageContaining("[1 s, 5 min]");
        assertThatThrownBy(() -> parse("http.access", "public"))
                .hasMessageContaining("metrics.reporter.insight.http.access")
                .hasMessageContaining("open, loopback or token");
        assertThatThrownBy(() -> parse("hub.dashboard-proxy.enabled", "maybe"))
                .hasMessageContaining("metrics.reporter.insight.hub.dashboard-proxy.enabled");
    }

    @Test
    void theStoresBudgetIsASizeInItsRangeAndBoundsTheCheckpointsCap() {
        assertThat(parse("stores.max-bytes", "1 gb").storesMaxBytes()).isEqualTo(1L << 30);
        assertThat(parse("stores.max-bytes", "32 mb").storeSettings().checkpointBytesCap())
                .isEqualTo(32L << 20);
        assertThatThrownBy(() -> parse("stores.max-bytes", "8 mb"))
                .hasMessageContaining("metrics.reporter.insight.stores.max-bytes")
                .hasMessageContaining("[16 mb, 16 gb]");
        assertThatThrownBy(() -> parse("stores.max-bytes", "lots"))
                .hasMessageContaining("metrics.reporter.insight.stores.max-bytes");
    }

    @Test
    void badDurationNamesTheFullKeyAndRange() {
        assertThatThrownBy(() -> parse("history.resolution", "5 parsecs"))
                .hasMessageContaining("metrics.reporter.insight.history.resolution")
                .hasMessageContaining("1 s");
        assertThatThrownBy(() -> parse("history.retention", "8 d"))
                .hasMessageContaining("metrics.reporter.insight.history.retention");
    }

    @Test
    void retentionFinerThanTheSampleCapIsRefused() {
        Properties p = new Properties();
        p.setProperty("history.retention", "7 d");
        p.setProperty("history.resolution", "1 s");

        assertThatThrownBy(() -> InsightConfiguration.from(p, PREFIX))
                .hasMessageContaining("metrics.reporter.insight.history.retention")
                .hasMessageContaining("100000");
    }

    @Test
    void badBooleanRoleAndUrlAreRefused() {
        assertThatThrownBy(() -> parse("hub.enabled", "yes"))
                .hasMessageContaining("metrics.reporter.insight.hub.enabled")
                .hasMessageContaining("true or false");
        assertThatThrownBy(() -> parse("role", "gateway"))
                .hasMessageContaining("metrics.reporter.insight.role")
                .hasMessageContaining("client");
        assertThatThrownBy(() -> parse("hub.flink-rest-url", "localhost:8081"))
                .hasMessageContaining("metrics.reporter.insight.hub.flink-rest-url");
    }

    @Test
    void hubClientsAreParsedIntoTheHubSettingsOrRefusedNamingTheKey() {
        InsightConfiguration c = parse("hub.clients", "gateway-1:9250-9260,gateway-2:9250");

        assertThat(c.hubSettings().clients())
                .containsExactly(
                        new ClientTarget("gateway-1", 9250, 9260),
                        new ClientTarget("gateway-2", 9250, 9250));
        assertThatThrownBy(() -> parse("hub.clients", "gateway-1"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith(
                        "metrics.reporter.insight.hub.clients: 'gateway-1' is invalid")
                .hasMessageContaining("host:port or host:first-last");
    }

    @Test
    void messageUsesThePrefixOfTheReporterThatReadIt() {
        Properties p = new Properties();
        p.setProperty("port", "x");

        assertThatThrownBy(() -> InsightConfiguration.from(p, "traces.reporter.insight."))
                .hasMessageStartingWith("traces.reporter.insight.port");
    }

    @Test
    void keepLiteralsIsOffByDefaultAndWhenOnKeepsThemAndClosesTheQueryLog() {
        InsightConfiguration byDefault = InsightConfiguration.defaults();
        assertThat(byDefault.statementsKeepLiterals()).isFalse();
        assertThat(byDefault.storeSettings().keepLiterals()).isFalse();

        InsightConfiguration keeping = parse("statements.keep-literals", "true");
        assertThat(keeping.statementsKeepLiterals()).isTrue();
        assertThat(keeping.storeSettings().keepLiterals()).isTrue();
        assertThat(keeping.access())
                .isNotEqualTo(byDefault.access())
                .isEqualTo(byDefault.access().withQueryLogOpen(false));
        assertThatThrownBy(() -> parse("statements.keep-literals", "maybe"))
                .hasMessageContaining(PREFIX + "statements.keep-literals")
                .hasMessageContaining("true or false");
    }

    @Test
    void storeDefaultsAreTheOptionsDefaults() {
        StoreSettings fromOptions = InsightConfiguration.defaults().storeSettings();

        assertThat(StoreSettings.defaults()).isEqualTo(fromOptions);
        assertThat(HubSettings.defaults()).isEqualTo(InsightConfiguration.defaults().hubSettings());
        assertThat(StoreSettings.DEFAULT_MAX_CHECKPOINTS_PER_JOB)
                .isEqualTo(InsightOptions.CHECKPOINTS_MAX_PER_JOB.defaultValue());
        assertThat(StoreSettings.DEFAULT_MAX_JOBS)
                .isEqualTo(InsightOptions.JOBS_MAX.defaultValue());
    }
}
