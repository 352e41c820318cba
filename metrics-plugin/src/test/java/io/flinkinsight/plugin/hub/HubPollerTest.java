package io.flinkinsight.plugin.hub;

import io.flinkinsight.plugin.TestingCapabilities;
import io.flinkinsight.plugin.store.SeriesKey;
import io.flinkinsight.plugin.store.SeriesStore;
import io.flinkinsight.plugin.store.StoreSettings;
import io.flinkinsight.plugin.store.TestingClock;
import io.flinkinsight.plugin.store.checkpoint.CheckpointRecord;
import io.flinkinsight.plugin.store.checkpoint.CheckpointStore;
import io.flinkinsight.plugin.store.checkpoint.PhaseFigures;
import io.flinkinsight.plugin.store.checkpoint.TaskCheckpoint;
import io.flinkinsight.plugin.store.job.JobRecord;
import io.flinkinsight.plugin.store.job.JobStore;
import io.flinkinsight.plugin.store.job.JobTransition;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;

import static org.assertj.core.api.Assertions.assertThat;

class HubPollerTest {

    private static final String JOB = "f3a874d12c3a7e77b32fe710c1a72ba2";
    private static final String SOURCE = "cbc357ccb763df2852fee8c4fc7d55f2";
    private static final String SINK = "90bea66de1c231edf33913ecd54406c1";

    private final TestingClock clock = new TestingClock(1_795_321_760_000L);
    private final SeriesStore series = new SeriesStore(StoreSettings.defaults(), clock);
    private final JobStore jobs = new JobStore(10, clock);
    private final CheckpointStore checkpoints = new CheckpointStore(100, 10);

    /** The hub's round {@code number}, started now with the full request budget. */
    private HubRound round(long number) {
        return new HubRound(number, clock.millis(), HubPoller.MAX_REQUESTS_PER_POLL);
    }

    private OptionalDouble latest(String name, String vertexId, String vertexName) {
        return series.latest(HubSeries.vertex(name, JOB, "recorded-job", vertexId, vertexName));
    }

    @Test
    void aPollRecordsVertexRatesLatencyAndTaskManagerFigures() throws Exception {
        TestingRestSource rest = TestingRestSource.recordedCluster();
        HubRound outcome = round(1);
        new HubPoller(rest, series, jobs, checkpoints, TestingCapabilities.FLINK_2_2, clock)
                .poll(outcome);

        assertThat(outcome.failures()).isZero();
        assertThat(latest(HubSeries.RECORDS_OUT, SOURCE, "Source: numbers -> double"))
                .hasValue(839.6500000000001);
        assertThat(latest(HubSeries.BUSY, SOURCE, "Source: numbers -> double")).hasValue(1000.0);
        SeriesKey p99 =
                HubSeries.latency(JOB, "recorded-job", SINK, "plus one -> Sink: discard", "0.99");
        SeriesKey p50 =
                HubSeries.latency(JOB, "recorded-job", SINK, "plus one -> Sink: discard", "0.5");
        assertThat(series.latest(p99).getAsDouble()).isEqualTo(maxOfRecorded("_p99"));
        assertThat(series.latest(p50).getAsDouble()).isEqualTo(maxOfRecorded("_median"));
        assertThat(series.latest(HubSeries.of(HubSeries.TM_COUNT))).hasValue(1.0);
        assertThat(
                        series.latest(
                                HubSeries.of(
                                        HubSeries.TM_HEAP_MAX,
                                        "tm_id",
                                        "aae5604d-9443-442e-bd50-0e7b521211ae")))
                .hasValue(536870912.0);
        assertThat(series.latest(HubSeries.of(HubSeries.CLUSTER_JOBS, "state", "RUNNING")))
                .hasValue(1.0);
        assertThat(jobs.get(JOB).jobName()).isEqualTo("recorded-job");
        assertThat(jobs.vertexName(JOB, SINK)).isEqualTo("plus one -> Sink: discard");
    }

    private static double maxOfRecorded(String suffix) throws IOException {
        return RestPayloads.values(TestingRestSource.fixture("vertex-latency-values.json"))
                .entrySet()
                .stream()
                .filter(e -> e.getKey().endsWith(suffix))
                .mapToDouble(java.util.Map.Entry::getValue)
                .max()
                .orElseThrow();
    }

    @Test
    void aRunningJobsSettingsAreReadOnce() throws Exception {
        TestingRestSource rest = TestingRestSource.recordedCluster();
        HubPoller poller =
                new HubPoller(
                        rest, series, jobs, checkpoints, TestingCapabilities.FLINK_2_2, clock);
        poller.poll(round(1));
        poller.poll(round(2));

        assertThat(jobs.settings(JOB).stateBackend()).isEqualTo("EmbeddedRocksDBStateBackend");
        assertThat(
                        rest.requested.stream()
                                .filter(p -> p.equals("/jobs/" + JOB + "/checkpoints/config")))
                .hasSize(1);
        assertThat(rest.requested.stream().filter(p -> p.equals("/jobs/" + JOB + "/config")))
                .hasSize(1);
    }

    @Test
    void latencyIdsAreListedOnceAndReusedUntilTheRediscoveryRound() throws Exception {
        TestingRestSource rest = TestingRestSource.recordedCluster();
        HubPoller poller =
                new HubPoller(
                        rest, series, jobs, checkpoints, TestingCapabilities.FLINK_2_2, clock);
        for (int i = 0; i < LatencyReader.LATENCY_DISCOVERY_EVERY + 1; i++) {
            poller.poll(round(i + 1));
            clock.advance(10_000);
        }
        long listings = rest.requested.stream().filter(p -> p.endsWith("/metrics")).count();
        // two vertices, listed in the first round and again LATENCY_DISCOVERY_EVERY rounds later
        assertThat(listings).isEqualTo(4);
    }

    @Test
    void failingRequestsAreCountedAndTheRoundGoesOn() throws Exception {
        TestingRestSource rest =
                new TestingRestSource()
                        .route(p -> p.equals("/taskmanagers"), "taskmanagers.json")
                        .route(p -> p.startsWith("/taskmanagers/"), "taskmanager-metrics.json");

        HubRound outcome = round(1);
        new HubPoller(rest, series, jobs, checkpoints, TestingCapabilities.FLINK_2_2, clock)
                .poll(outcome);

        assertThat(outcome.failures()).isEqualTo(1);
        assertThat(outcome.firstFailure()).contains("/jobs/overview");
        assertThat(series.latest(HubSeries.of(HubSeries.TM_COUNT))).hasValue(1.0);
        assertThat(series.latest(HubSeries.of(HubSeries.POLL_FAILURES))).hasValue(1.0);
    }

    @Test
    void aRoundNeverExceedsItsRequestBudget() throws Exception {
        // every job details request answers the recorded job, so 60 running jobs would need far
        // more requests
        StringBuilder overview = new StringBuilder("{\"jobs\":[");
        for (int i = 0; i < 60; i++) {
            overview.append(i == 0 ? "" : ",")
                    .append(
                            String.format(
                                    "{\"jid\":\"%032x\",\"name\":\"j%d\",\"state\":\"RUNNING\",\"start-time\":%d,\"end-time\":-1}",
                                    i, i, i));
        }
        overview.append("]}");
        var parsed =
                new com.fasterxml.jackson.databind.ObjectMapper().readTree(overview.toString());
        TestingRestSource fixtures = TestingRestSource.recordedCluster();
        List<String> requested = new ArrayList<>();
        RestSource rest =
                path -> {
                    requested.add(path);
                    return path.equals("/jobs/overview") ? parsed : fixtures.get(path);
                };

        HubRound outcome = round(1);
        new HubPoller(
                        rest,
                        series,
                        new JobStore(100, clock),
                        checkpoints,
                        TestingCapabilities.FLINK_2_2,
                        clock)
                .poll(outcome);

        assertThat(outcome.requests()).isLessThanOrEqualTo(HubPoller.MAX_REQUESTS_PER_POLL);
        assertThat(requested).hasSizeLessThanOrEqualTo(HubPoller.MAX_REQUESTS_PER_POLL);
        assertThat(requested.stream().filter(p -> p.matches("/jobs/[0-9a-f]{32}")).count())
                .isBetween(1L, 59L);
    }

    /**
     * A cluster of {@code taskManagers} TaskManagers ({@code tm-<i>}) and {@code runningJobs}
     * running jobs (ids {@code %032x} of their index), each job answering as the recorded one;
     * every path asked is added to {@code requested}.
     */
    private static RestSource largeCluster(
            int taskManagers, int runningJobs, List<String> requested) throws IOException {
        var mapper = new com.fasterxml.jackson.databind.ObjectMapper();
        var overview = mapper.createObjectNode();
        var jobList = overview.putArray("jobs");
        for (int i = 0; i < runningJobs; i++) {
            jobList.addObject()
                    .put("jid", String.format("%032x", i))
                    .put("name", "j" + i)
                    .put("state", "RUNNING")
                    .put("start-time", 1_000L + i)
                    .put("end-time", -1);
        }
        var tmList = mapper.createObjectNode();
        var tms = tmList.putArray("taskmanagers");
        for (int i = 0; i < taskManagers; i++) {
            tms.addObject().put("id", "tm-" + i);
        }
        TestingRestSource fixtures = TestingRestSource.recordedCluster();
        return path -> {
            requested.add(path);
            return switch (path) {
                case "/jobs/overview" -> overview;
                case "/taskmanagers" -> tmList;
                default -> fixtures.get(path);
            };
        };
    }

    private static String taskManagerOf(String path) {
        return path.startsWith("/taskmanagers/")
                ? path.substring("/taskmanagers/".length(), path.indexOf('/', 14))
                : null;
    }

    private static String jobOf(String path) {
        return path.matches("/jobs/[0-9a-f]{32}") ? path.substring("/jobs/".length()) : null;
    }

    @Test
    void aSmallBudgetReachesEveryTaskManagerAndEveryJobWithinTheRoundsItAllows() throws Exception {
        int budget = 30;
        int taskManagers = 50;
        int runningJobs = 12;
        // the most one job's turn costs: its first, when its settings and latency ids are read too
        List<String> alone = new ArrayList<>();
        new HubPoller(
                        largeCluster(0, 1, alone),
                        series,
                        new JobStore(100, clock),
                        checkpoints,
                        TestingCapabilities.FLINK_2_2,
                        clock)
                .poll(new HubRound(1, clock.millis(), 1_000));
        int jobTurnCost = alone.size() - 2; // less the overview and the TaskManager list
        int taskManagerShare = (budget - 2) / 2;
        int jobsPerRound = Math.max(1, (budget - 2 - taskManagerShare) / jobTurnCost);
        int taskManagerRounds = (taskManagers + taskManagerShare - 1) / taskManagerShare;
        int jobRounds = (runningJobs + jobsPerRound - 1) / jobsPerRound;
        assertThat(jobRounds)
                .as("the bound must say something: fewer jobs per round than jobs")
                .isGreaterThan(1);

        List<String> requested = new ArrayList<>();
        HubPoller poller =
                new HubPoller(
                        largeCluster(taskManagers, runningJobs, requested),
                        series,
                        new JobStore(100, clock),
                        checkpoints,
                        TestingCapabilities.FLINK_2_2,
                        clock);
        int rounds = 2 * Math.max(taskManagerRounds, jobRounds);
        List<List<String>> perRound = new ArrayList<>();
        for (int r = 1; r <= rounds; r++) {
            requested.clear();
            HubRound round = new HubRound(r, clock.millis(), budget);
            poller.poll(round);
            assertThat(round.requests()).isLessThanOrEqualTo(budget);
            perRound.add(List.copyOf(requested));
            clock.advance(10_000);
        }

        // every one within its bound, and again within the next as many rounds: the turn goes on
        // across rounds
        for (int from = 0; from < 2; from++) {
            int tmFrom = from * taskManagerRounds;
            int jobFrom = from * jobRounds;
            var tmsSeen =
                    perRound.subList(tmFrom, tmFrom + taskManagerRounds).stream()
                            .flatMap(List::stream)
                            .map(HubPollerTest::taskManagerOf)
                            .filter(java.util.Objects::nonNull)
                            .distinct()
                            .count();
            var jobsSeen =
                    perRound.subList(jobFrom, jobFrom + jobRounds).stream()
                            .flatMap(List::stream)
                            .map(HubPollerTest::jobOf)
                            .filter(java.util.Objects::nonNull)
                            .distinct()
                            .count();
            assertThat(tmsSeen)
                    .as(
                            "TaskManagers read in rounds %d to %d",
                            tmFrom + 1, tmFrom + taskManagerRounds)
                    .isEqualTo(taskManagers);
            assertThat(jobsSeen)
                    .as("jobs polled in rounds %d to %d", jobFrom + 1, jobFrom + jobRounds)
                    .isEqualTo(runningJobs);
        }
    }

    @Test
    void withoutJobsTheWholeBudgetGoesToTaskManagers() throws Exception {
        List<String> requested = new ArrayList<>();
        HubRound round = round(1);
        new HubPoller(
                        largeCluster(HubPoller.MAX_REQUESTS_PER_POLL, 0, requested),
                        series,
                        jobs,
                        checkpoints,
                        TestingCapabilities.FLINK_2_2,
                        clock)
                .poll(round);

        assertThat(
                        requested.stream()
                                .map(HubPollerTest::taskManagerOf)
                                .filter(java.util.Objects::nonNull))
                .hasSize(HubPoller.MAX_REQUESTS_PER_POLL - 2);
        assertThat(series.latest(HubSeries.of(HubSeries.TM_COUNT)))
                .hasValue(HubPoller.MAX_REQUESTS_PER_POLL);
    }

    private TestingRestSource withCheckpoints() {
        return TestingRestSource.recordedCluster()
                .route(p -> p.contains("/checkpoints/details/"), "checkpoint-details.json")
                .route(p -> p.endsWith("/checkpoints"), "job-checkpoints.json");
    }

    @Test
    void beforeFlink22CheckpointsAndStatusTimesComeFromRest() throws Exception {
        TestingRestSource rest = withCheckpoints();
        HubRound outcome = round(1);
        new HubPoller(rest, series, jobs, checkpoints, TestingCapabilities.FLINK_1_20, clock)
                .poll(outcome);

        assertThat(outcome.failures()).isZero();
        // finished checkpoints only, newest first; the one in progress waits for a later round
        assertThat(checkpoints.newestFirst(JOB, 10))
                .extracting(CheckpointRecord::checkpointId)
                .containsExactly(3L, 2L, 1L);
        CheckpointRecord third = checkpoints.latest(JOB);
        assertThat(third.source()).isEqualTo("rest");
        assertThat(third.status()).isEqualTo("COMPLETED");
        assertThat(third.unaligned()).isTrue();
        assertThat(third.durationMs()).isEqualTo(350L);
        assertThat(third.fullSize()).isEqualTo(81920L);
        assertThat(third.checkpointedSize()).isEqualTo(20480L);
        assertThat(third.sum().persistedDataBytes()).isEqualTo(600L);
        assertThat(third.tasks())
                .extracting(TaskCheckpoint::vertexId)
                .containsExactlyInAnyOrder(SOURCE, SINK);
        assertThat(third.tasks())
                .filteredOn(t -> t.vertexId().equals(SINK))
                .singleElement()
                .satisfies(t -> assertThat(t.sum().checkpointedSizeBytes()).isEqualTo(12288L));
        CheckpointRecord failed = checkpoints.newestFirst(JOB, 10).get(1);
        assertThat(failed.status()).isEqualTo("FAILED");
        assertThat(failed.endTime()).isEqualTo(1795321726900L);
        // the fixture's details answer checkpoint 3: another checkpoint's answer is not taken as
        // its tasks
        assertThat(checkpoints.newestFirst(JOB, 10).get(2).tasks()).isEmpty();

        JobRecord job = jobs.get(JOB);
        assertThat(job.transitions())
                .extracting(JobTransition::status)
                .containsExactly("INITIALIZING", "CREATED", "RUNNING");
        assertThat(job.createdAt()).isEqualTo(1795321711582L);
    }

    @Test
    void aCheckpointReadFromSpanAndRestIsOneRecordWithTheSpansFigures() throws Exception {
        checkpoints.add(
                new CheckpointRecord(
                        JOB,
                        "recorded-job",
                        3,
                        "COMPLETED",
                        null,
                        null,
                        1795321728000L,
                        1795321728350L,
                        350L,
                        81920L,
                        20000L,
                        null,
                        PhaseFigures.NONE,
                        PhaseFigures.NONE,
                        List.of(),
                        "span"));

        new HubPoller(
                        withCheckpoints(),
                        series,
                        jobs,
                        checkpoints,
                        TestingCapabilities.FLINK_1_20,
                        clock)
                .poll(round(1));

        assertThat(checkpoints.newestFirst(JOB, 10)).hasSize(3);
        CheckpointRecord third = checkpoints.latest(JOB);
        assertThat(third.source()).isEqualTo("span");
        assertThat(third.checkpointedSize()).isEqualTo(20000L); // the span's, not REST's 20480
        assertThat(third.type()).isEqualTo("Checkpoint"); // what only REST gave
        assertThat(third.tasks()).hasSize(2);
    }

    @Test
    void checkpointDetailsAreReadOnceAndNotAtAllWhereSpansCarryThem() throws Exception {
        TestingRestSource rest = withCheckpoints();
        HubPoller older =
                new HubPoller(
                        rest, series, jobs, checkpoints, TestingCapabilities.FLINK_1_20, clock);
        older.poll(round(1));
        older.poll(round(2));
        assertThat(
                        rest.requested.stream()
                                .filter(p -> p.endsWith("/checkpoints/details/3"))
                                .count())
                .isEqualTo(1);

        TestingRestSource newer = withCheckpoints();
        new HubPoller(
                        newer,
                        series,
                        new JobStore(10, clock),
                        new CheckpointStore(100, 10),
                        TestingCapabilities.FLINK_2_2,
                        clock)
                .poll(round(1));
        // (the job's checkpointing settings are read once on every version, for the compare view)
        assertThat(newer.requested)
                .noneMatch(p -> p.contains("/checkpoints") && !p.endsWith("/checkpoints/config"));
    }

    @Test
    void anEndedJobIsReadOnceForItsStatusTimesAndLastCheckpoints() throws Exception {
        var overview =
                new com.fasterxml.jackson.databind.ObjectMapper()
                        .readTree(
                                String.format(
                                        "{\"jobs\":[{\"jid\":\"%s\",\"name\":\"recorded-job\",\"state\":\"FINISHED\","
                                                + "\"start-time\":1795321711582,\"end-time\":1795321740000}]}",
                                        JOB));
        TestingRestSource fixtures = withCheckpoints();
        RestSource rest = path -> path.equals("/jobs/overview") ? overview : fixtures.get(path);
        HubPoller poller =
                new HubPoller(
                        rest, series, jobs, checkpoints, TestingCapabilities.FLINK_1_20, clock);
        poller.poll(round(1));
        poller.poll(round(2));

        assertThat(fixtures.requested.stream().filter(p -> p.equals("/jobs/" + JOB)).count())
                .isEqualTo(1);
        assertThat(fixtures.requested.stream().filter(p -> p.endsWith("/checkpoints")).count())
                .isEqualTo(1);
        assertThat(checkpoints.newestFirst(JOB, 10)).hasSize(3);
        // the recorded details say the job is RUNNING; its status times replace the overview's
        // single FINISHED
        assertThat(jobs.get(JOB).transitions())
                .extracting(JobTransition::status)
                .contains("INITIALIZING", "RUNNING");
    }
}
