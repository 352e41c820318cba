package io.flinkinsight.plugin.index;

import io.flinkinsight.plugin.ProcessRole;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ClientContractTest {

    private final ClientContract contract = ClientContract.get();

    @Test
    void theContractIsTheClientsRootGroupWithItsFourGroups() {
        assertThat(contract.scope()).isEqualTo(ProcessRole.CLIENT_SCOPE);
        assertThat(contract.groups()).containsExactly("pool", "channels", "collect", "queries");
    }

    @Test
    void seriesAreNamedAsFlinksPrometheusReporterNamesThem() {
        assertThat(ClientContract.seriesName("insight_client", "channels", "inFlight"))
                .isEqualTo("flink_insight_client_channels_inFlight");
        assertThat(ClientContract.seriesName("insight client", "a.b", "x-y"))
                .isEqualTo("flink_insight_client_a_b_x_y");
        assertThat(contract.isFigure("flink_insight_client_pool_hits")).isTrue();
        assertThat(contract.isFigure("flink_insight_client_pool_hits_total")).isFalse();
        assertThat(contract.isFigure("flink_insight_client_queries_e2eLatencyMs_count")).isFalse();
    }

    @Test
    void ratiosNameTheirPartsAndWholes() {
        ClientContract.Figure hitRate =
                contract.figures().stream()
                        .filter(f -> f.seriesName().equals("flink_insight_client_pool_hitRate"))
                        .findFirst()
                        .orElseThrow();

        assertThat(contract.ratio(hitRate).part())
                .extracting(ClientContract.Figure::name)
                .containsExactly("hits");
        assertThat(contract.ratio(hitRate).whole())
                .extracting(ClientContract.Figure::name)
                .containsExactly("hits", "misses");
    }

    @Test
    void aRatioOfAFigureThatIsNotDeclaredIsRefused() throws Exception {
        String json =
                "{\"scope\":\"s\",\"figures\":[{\"group\":\"g\",\"name\":\"r\",\"kind\":\"gauge\","
                        + "\"ratio\":{\"part\":[\"g.missing\"],\"whole\":[\"g.r\"]}}]}";

        assertThatThrownBy(() -> ClientContract.parse(new ObjectMapper().readTree(json)))
                .hasMessageContaining("g.missing");
    }
}
