package io.flinkinsight.plugin.api;

import io.flinkinsight.plugin.http.BadRequestException;
import io.flinkinsight.plugin.http.QueryParameters;
import io.flinkinsight.plugin.store.statement.StatementStore;

import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StatementsEndpointTest {

    private final StatementsEndpoint endpoint =
            new StatementsEndpoint(
                    new StatementStore(10, 1 << 20),
                    Clock.fixed(Instant.ofEpochMilli(10_000), ZoneOffset.UTC));

    private static QueryParameters query(Map<String, List<String>> values) {
        return new QueryParameters(values);
    }

    @Test
    void answersTheKeptStatementsByTotalTimeByDefault() throws BadRequestException {
        StatementsEndpoint.Response answer = endpoint.handle(query(Map.of()));

        assertThat(answer.sort()).isEqualTo("total");
        assertThat(answer.kept()).isZero();
        assertThat(answer.statements()).isEmpty();
    }

    @Test
    void sortsOnlyByWhatItNames() throws BadRequestException {
        for (String sort : List.of("total", "p99", "calls", "failures")) {
            assertThat(endpoint.handle(query(Map.of("sort", List.of(sort)))).sort())
                    .isEqualTo(sort);
        }
        for (String sort : List.of("TOTAL", "p99 ", "name", "", "total,calls")) {
            assertThatThrownBy(() -> endpoint.handle(query(Map.of("sort", List.of(sort)))))
                    .as("sort=%s", sort)
                    .isInstanceOf(BadRequestException.class)
                    .hasMessageContaining("total, p99, calls, failures");
        }
    }

    @Test
    void refusesUnknownParametersAndLimitsOutOfRange() {
        assertThatThrownBy(() -> endpoint.handle(query(Map.of("to", List.of("1")))))
                .isInstanceOf(BadRequestException.class)
                .hasMessageContaining("accepted: sort, limit, from");
        for (String from : List.of("yesterday", "-1y", "1.5", "-")) {
            assertThatThrownBy(() -> endpoint.handle(query(Map.of("from", List.of(from)))))
                    .as("from=%s", from)
                    .isInstanceOf(BadRequestException.class);
        }
        assertThatThrownBy(() -> endpoint.handle(query(Map.of("x".repeat(10_000), List.of("1")))))
                .isInstanceOf(BadRequestException.class)
                .satisfies(e -> assertThat(e.getMessage()).hasSizeLessThan(200));
        for (String limit : List.of("0", "1001", "-1", "1e3")) {
            assertThatThrownBy(() -> endpoint.handle(query(Map.of("limit", List.of(limit)))))
                    .as("limit=%s", limit)
                    .isInstanceOf(BadRequestException.class);
        }
    }
}
