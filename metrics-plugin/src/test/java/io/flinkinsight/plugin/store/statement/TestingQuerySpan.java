package io.flinkinsight.plugin.store.statement;

import org.apache.flink.traces.Span;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** A span as the interactive client reports a query, with the attributes a test gives it. */
record TestingQuerySpan(String scope, String name, long endMillis, Map<String, Object> attributes)
        implements Span {

    static TestingQuerySpan query(String statement, String outcome, long e2eMs, long clusterRunMs) {
        Map<String, Object> attributes = new HashMap<>();
        attributes.put("statement", statement);
        attributes.put("statementId", "0123456789abcdef");
        attributes.put("outcome", outcome);
        attributes.put("e2eMs", e2eMs);
        attributes.put("submitMs", 10L);
        if (clusterRunMs >= 0) {
            attributes.put("clusterRunMs", clusterRunMs);
        }
        return new TestingQuerySpan(
                QuerySample.SPAN_SCOPE, QuerySample.SPAN_NAME, 1_000L, attributes);
    }

    /** A query of {@code statement} that ended at {@code endMillis} after {@code e2eMs}. */
    static QuerySample sample(String statement, long endMillis, long e2eMs) {
        return QuerySample.of(
                statement,
                "",
                null,
                "SUCCEEDED",
                endMillis - e2eMs,
                endMillis,
                e2eMs,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                false);
    }

    @Override
    public String getScope() {
        return scope;
    }

    @Override
    public String getName() {
        return name;
    }

    /** The query's start: its end less its e2eMs when that is a number, else a ms before. */
    @Override
    public long getStartTsMillis() {
        Object e2e = attributes == null ? null : attributes.get("e2eMs");
        return e2e instanceof Long millis && millis >= 0 ? endMillis - millis : endMillis - 1;
    }

    @Override
    public long getEndTsMillis() {
        return endMillis;
    }

    @Override
    public Map<String, Object> getAttributes() {
        return attributes;
    }

    @Override
    public List<Span> getChildren() {
        return List.of();
    }
}
