package io.flinkinsight.plugin.runtime;

import io.flinkinsight.plugin.ProcessRole;

import org.apache.flink.metrics.SimpleCounter;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.util.Map;
import java.util.Properties;

import static io.flinkinsight.plugin.index.TestingGroups.group;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A role declared by the option holds in a started runtime (its server bound to a free loopback
 * port).
 */
class DeclaredRoleITCase {

    private InsightRuntime runtime;

    @AfterEach
    void closeRuntime() {
        if (runtime != null) {
            runtime.close();
        }
    }

    @Test
    void declaredRoleIsNotOverriddenByScopes() {
        Properties p = new Properties();
        p.setProperty("role", "client");
        p.setProperty("port", "0");
        p.setProperty("bind-host", "127.0.0.1");
        InsightRuntime r =
                InsightRuntime.start(InsightConfiguration.from(p, "x."), Clock.systemUTC());
        runtime = r;
        r.metricAdded(
                new SimpleCounter(), "numRegisteredTaskManagers", group("jobmanager", Map.of()));

        assertThat(r.role()).isEqualTo(ProcessRole.CLIENT);
    }
}
