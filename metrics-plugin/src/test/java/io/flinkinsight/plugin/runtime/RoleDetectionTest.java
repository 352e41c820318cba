package io.flinkinsight.plugin.runtime;

import io.flinkinsight.plugin.ProcessRole;
import io.flinkinsight.plugin.http.Json;

import org.apache.flink.metrics.SimpleCounter;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

import static io.flinkinsight.plugin.index.TestingGroups.group;
import static io.flinkinsight.plugin.index.TestingGroups.taskGroup;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * How a runtime learns its role, on runtimes that bind no port ({@link DeclaredRoleITCase} starts
 * one with a declared role).
 */
class RoleDetectionTest {

    private InsightRuntime runtime;

    @AfterEach
    void closeRuntime() {
        System.clearProperty(ProcessRole.SYSTEM_PROPERTY);
        if (runtime != null) {
            runtime.close();
        }
    }

    private InsightRuntime runtime(Properties p) {
        runtime =
                new InsightRuntime(
                        InsightConfiguration.from(p, "metrics.reporter.insight."),
                        Clock.systemUTC());
        return runtime;
    }

    @Test
    void taskManagerScopeMakesTheProcessATaskManager() {
        InsightRuntime r = runtime(new Properties());
        r.metricAdded(new SimpleCounter(), "numRecordsIn", taskGroup("0"));

        assertThat(r.role()).isEqualTo(ProcessRole.TASKMANAGER);
    }

    @Test
    void theOverviewShowsTheRoleByItsLowerCaseName() throws Exception {
        Properties noHub = new Properties();
        noHub.setProperty("hub.enabled", "false");
        InsightRuntime r = runtime(noHub);
        assertThat(new String(Json.toBytes(r.overview()), StandardCharsets.UTF_8))
                .as("role not known yet")
                .startsWith("{\"role\":null,");

        for (ProcessRole role : ProcessRole.values()) {
            r.setRole(role);
            assertThat(new String(Json.toBytes(r.overview()), StandardCharsets.UTF_8))
                    .startsWith("{\"role\":\"" + role.lowerCaseName() + "\",");
        }
        assertThat(ProcessRole.values())
                .extracting(ProcessRole::lowerCaseName)
                .containsExactly("jobmanager", "taskmanager", "client");
    }

    @Test
    void taskManagersKeepHistoryOnlyWhenAsked() {
        InsightRuntime r = runtime(new Properties());
        assertThat(r.keepsHistory()).as("role not known yet").isTrue();
        r.metricAdded(new SimpleCounter(), "numRecordsIn", taskGroup("0"));
        assertThat(r.keepsHistory()).as("a TaskManager by default").isFalse();
        r.close();

        Properties asked = new Properties();
        asked.setProperty("history.on-taskmanagers", "true");
        InsightRuntime kept = runtime(asked);
        kept.metricAdded(new SimpleCounter(), "numRecordsIn", taskGroup("0"));
        assertThat(kept.keepsHistory()).as("a TaskManager with history.on-taskmanagers").isTrue();
    }

    @Test
    void jobManagerScopeWinsOverTaskManagerScope() {
        InsightRuntime r = runtime(new Properties());
        r.metricAdded(new SimpleCounter(), "numRecordsIn", taskGroup("0"));
        r.metricAdded(
                new SimpleCounter(), "numRegisteredTaskManagers", group("jobmanager", Map.of()));
        r.metricAdded(new SimpleCounter(), "numRecordsOut", taskGroup("0"));

        assertThat(r.role()).isEqualTo(ProcessRole.JOBMANAGER);
    }

    @Test
    void interactiveClientScopeMakesTheProcessAClient() {
        InsightRuntime r = runtime(new Properties());
        r.metricAdded(
                new SimpleCounter(),
                "hits",
                group("insight_client.pool", Map.of("<host>", "gateway-1")));

        assertThat(r.role()).isEqualTo(ProcessRole.CLIENT);
        assertThat(ProcessRole.fromLogicalScope("insight_client_queries"))
                .isEqualTo(ProcessRole.CLIENT);
        assertThat(ProcessRole.fromLogicalScope("sql_gateway")).isNull();
    }

    @Test
    void jobManagerScopeWinsOverClientScope() {
        InsightRuntime r = runtime(new Properties());
        r.metricAdded(
                new SimpleCounter(),
                "hits",
                group("insight_client.pool", Map.of("<host>", "localhost")));
        r.metricAdded(
                new SimpleCounter(), "numRegisteredTaskManagers", group("jobmanager", Map.of()));
        r.metricAdded(
                new SimpleCounter(),
                "misses",
                group("insight_client.pool", Map.of("<host>", "localhost")));

        assertThat(r.role()).isEqualTo(ProcessRole.JOBMANAGER);
    }

    @Test
    void systemPropertyDeclaresTheRoleWhenTheOptionIsAuto() {
        System.setProperty(ProcessRole.SYSTEM_PROPERTY, "client");

        assertThat(ProcessRole.declared(Optional.empty())).isEqualTo(ProcessRole.CLIENT);
        assertThat(ProcessRole.declared(Optional.of(ProcessRole.TASKMANAGER)))
                .isEqualTo(ProcessRole.TASKMANAGER);
    }

    @Test
    void onlyAJobManagerWithTheHubEnabledRunsTheHubAndNotAfterClose() {
        // port 1 refuses connections: should a poll start, it cannot reach anyone's cluster
        Properties unreachable = new Properties();
        unreachable.setProperty("hub.flink-rest-url", "http://127.0.0.1:1");
        Properties disabled = new Properties();
        disabled.setProperty("hub.enabled", "false");

        InsightRuntime taskManager = runtime(unreachable);
        taskManager.setRole(ProcessRole.TASKMANAGER);
        assertThat(taskManager.hubRunning()).isFalse();
        taskManager.close();
        InsightRuntime off = runtime(disabled);
        off.setRole(ProcessRole.JOBMANAGER);
        assertThat(off.hubRunning()).isFalse();
        off.close();

        InsightRuntime jobManager = runtime(unreachable);
        jobManager.setRole(ProcessRole.JOBMANAGER);
        jobManager.setRole(ProcessRole.JOBMANAGER);
        assertThat(jobManager.hubRunning()).isTrue();
        jobManager.close();
        assertThat(jobManager.hubRunning()).isFalse();
        jobManager.setRole(ProcessRole.JOBMANAGER);
        assertThat(jobManager.hubRunning()).as("no hub after close").isFalse();
    }
}
