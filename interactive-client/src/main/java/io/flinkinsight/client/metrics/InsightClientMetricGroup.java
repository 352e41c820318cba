package io.flinkinsight.client.metrics;

import org.apache.flink.metrics.CharacterFilter;
import org.apache.flink.runtime.metrics.MetricRegistry;
import org.apache.flink.runtime.metrics.dump.QueryScopeInfo;
import org.apache.flink.runtime.metrics.groups.AbstractMetricGroup;
import org.apache.flink.runtime.metrics.scope.ScopeFormat;

import java.util.Map;

/**
 * Root metric group of the interactive client in a client process (SQL Gateway, CLI): group name
 * {@code insight_client}, the host as variable {@code <host>}. Reporters that build names from the
 * logical scope, like Prometheus, therefore name the figures {@code
 * flink_insight_client_<group>_<name>}.
 */
public final class InsightClientMetricGroup extends AbstractMetricGroup<InsightClientMetricGroup> {

    public static final String GROUP_NAME = "insight_client";

    private final String hostname;

    public InsightClientMetricGroup(MetricRegistry registry, String hostname) {
        super(registry, new String[] {hostname, GROUP_NAME}, null);
        this.hostname = hostname;
    }

    @Override
    protected String getGroupName(CharacterFilter filter) {
        return GROUP_NAME;
    }

    @Override
    protected void putVariables(Map<String, String> variables) {
        variables.put(ScopeFormat.SCOPE_HOST, hostname);
    }

    @Override
    protected QueryScopeInfo createQueryServiceMetricInfo(CharacterFilter filter) {
        // Client processes run no metric query service; this only satisfies the contract of the
        // base class.
        return new QueryScopeInfo.JobManagerQueryScopeInfo();
    }
}
