import { CheckpointRecord, PhaseFigures } from '../app/api/checkpoints/checkpoints.model';
import { ClientFigures } from '../app/api/client/client.model';
import { JobRecord } from '../app/api/jobs/jobs.model';
import { Capability, Overview } from '../app/api/overview/overview.model';
import { ChartPoint } from '../app/api/series/series-math';
import { Series, SeriesResponse } from '../app/api/series/series.model';
import { QueryPhase, QueryView, StatementRow } from '../app/api/statements/statements.model';

/** A job name that would run script if it were ever rendered as HTML. */
export const HOSTILE_NAME = '<img src=x onerror=alert(1)>';
export const JOB_ID = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';

export function phases(partial: Partial<PhaseFigures> = {}): PhaseFigures {
  return {
    stateSizeBytes: null,
    checkpointedSizeBytes: null,
    startDelayMs: null,
    alignmentDurationMs: null,
    syncDurationMs: null,
    asyncDurationMs: null,
    processedDataBytes: null,
    persistedDataBytes: null,
    ...partial,
  };
}

export function jobRecord(partial: Partial<JobRecord> = {}): JobRecord {
  return {
    jobId: JOB_ID,
    jobName: 'wordcount',
    status: 'RUNNING',
    terminal: false,
    createdAt: Date.now() - 60_000,
    endedAt: null,
    clusterLatencyMs: 60_000,
    allSubtasksRunningAt: null,
    transitions: [],
    failureCount: 0,
    failures: [],
    initialization: null,
    lastCheckpoint: null,
    vertices: {},
    updatedAt: Date.now(),
    ...partial,
  };
}

export function checkpointRecord(partial: Partial<CheckpointRecord> = {}): CheckpointRecord {
  const endTime = partial.endTime ?? Date.now() - 10_000;
  return {
    jobId: JOB_ID,
    jobName: 'wordcount',
    checkpointId: 1,
    status: 'COMPLETED',
    type: 'Checkpoint',
    unaligned: false,
    triggerTime: endTime - 300,
    endTime,
    durationMs: 300,
    fullSize: 100 * 1024 * 1024,
    checkpointedSize: 3 * 1024 * 1024,
    metadataSize: 1024,
    max: phases({ asyncDurationMs: 250, syncDurationMs: 10, alignmentDurationMs: 5, startDelayMs: 3 }),
    sum: phases(),
    tasks: [],
    source: 'span',
    savepoint: false,
    ...partial,
  };
}

export function clientFigures(available: boolean): ClientFigures {
  const q = (p50: number, p99: number) => ({ p50: available ? p50 : null, p99: available ? p99 : null });
  return {
    available,
    hint: available ? null : 'install the interactive-client jar in the SQL Gateway\'s lib/ and set execution.target: remote-interactive',
    pool: { requests: 100, hits: 90, misses: 10, evictions: 0, hitRate: available ? 0.9 : null, size: 2 },
    channels: {
      requests: 600, opened: 5, reused: 95, reuseRatio: available ? 0.95 : null, inFlight: 1, requestLatencyMs: q(1, 3),
      queryRequests: 540, requestsPerQuery: available ? 5 : null, requestsPerQueryQuantiles: q(5, 11),
    },
    collect: { requests: 300, retries: 50, retriesPerQuery: available ? 0.5 : null, retriesPerQueryQuantiles: q(0, 2) },
    queries: {
      submitted: 100,
      succeeded: 99,
      failed: 1,
      e2eLatencyMs: q(260, 540),
      submitMs: q(40, 90),
      admissionWaitMs: q(12, 480),
      waiting: 3,
      jobStartWaitMs: q(5, 30),
      clusterRunMs: q(190, 400),
      resultFetchMs: q(25, 60),
    },
  };
}

/** {@link clientFigures} with a history of two points a series, one step apart, ending at {@link to}. */
export function clientFiguresWithHistory(to = Date.now()): ClientFigures {
  const t = [to - 6000, to - 3000];
  const pts = (a: number, b: number): ChartPoint[] => [[t[0], a], [t[1], b]];
  const q = (p50: number, p99: number) => ({ p50: pts(p50, p50), p99: pts(p99, p99) });
  return {
    ...clientFigures(true),
    history: {
      pool: { hitRate: pts(0.8, 0.9), size: pts(2, 2) },
      channels: {
        reuseRatio: pts(0.9, 0.95), inFlight: pts(0, 1), requestLatencyMs: q(1, 3),
        requestsPerQuery: pts(5, 5), requestsPerQueryQuantiles: q(5, 11),
      },
      collect: { retriesPerQuery: pts(0.5, 1), retriesPerQueryQuantiles: q(0, 2) },
      queries: {
        e2eLatencyMs: q(260, 540), submitMs: q(40, 90), admissionWaitMs: q(12, 480), waiting: pts(0, 3),
        jobStartWaitMs: q(5, 30), clusterRunMs: q(190, 400), resultFetchMs: q(25, 60),
      },
    },
  };
}

export function seriesResponse(metric: string, series: Series[]): SeriesResponse {
  return { metric, from: 0, to: Date.now(), step: 1000, matched: series.length, truncated: false, series };
}

/**
 * `/api/v1/overview` of a hub on Flink {@link flinkVersion}: 1.20 lacks what 2.2 brought (phase figures, task spans,
 * job events), in the words of the plugin's FlinkCapabilities.
 */
export function overviewOnFlink(flinkVersion: '1.20.3' | '2.2.0'): Overview {
  const old = flinkVersion === '1.20.3';
  const rest = "filled from Flink's REST API: ";
  const capabilities: Capability[] = [
    { name: 'checkpoint-spans', available: true, since: '1.19', option: 'traces.reporter.insight.factory.class',
      gives: 'each checkpoint', whenMissing: rest + 'the same' },
    { name: 'checkpoint-phase-figures', available: !old, since: '2.2', option: null,
      gives: 'phase figures', whenMissing: rest + 'processed and persisted data; no sync/async split' },
    { name: 'checkpoint-task-spans', available: !old, since: '2.2', option: 'traces.checkpoint.span-detail-level',
      gives: 'per task figures', whenMissing: rest + 'per task sizes and end-to-end duration' },
    { name: 'job-events', available: !old, since: '2.2', option: 'events.reporter.insight.factory.class',
      gives: 'job events', whenMissing: rest + 'status changes and cluster-side latency; failures are not reported' },
  ];
  return { role: 'jobmanager', flinkVersion, capabilities };
}

export const STATEMENT_ID = '0123456789abcdef';

/** A statement of the wordcount query, 10 calls of 250 ms on average. */
export function statementRow(partial: Partial<StatementRow> = {}): StatementRow {
  return {
    id: STATEMENT_ID,
    statement: 'SELECT word, COUNT(*) FROM words WHERE lang = ? GROUP BY word',
    calls: 10,
    failed: 0,
    canceled: 0,
    totalMs: 2_500,
    share: 0.5,
    meanMs: 250,
    p50Ms: 240,
    p99Ms: 400,
    maxMs: 410,
    clusterP50Ms: 150,
    clusterP99Ms: 300,
    outsideJobMeanMs: 90,
    partsP50Ms: { admissionWait: 1, submit: 40, jobStartWait: 10, clusterRun: 150, resultFetch: 30 },
    firstSeen: Date.now() - 600_000,
    lastSeen: Date.now() - 1_000,
    ...partial,
  };
}

/**
 * A query of {@link STATEMENT_ID} that started at {@link start} and took 300 ms: the client's five phases one after
 * the other and, unless {@link cluster} is false, its job's three phases on a JobManager clock 5 ms behind.
 */
export function queryView(start = 1_000_000, cluster = true, partial: Partial<QueryView> = {}): QueryView {
  const client: QueryPhase[] = [
    { side: 'client', name: 'admissionWait', start, end: start + 2 },
    { side: 'client', name: 'submit', start: start + 2, end: start + 50 },
    { side: 'client', name: 'jobStartWait', start: start + 50, end: start + 60 },
    { side: 'client', name: 'clusterRun', start: start + 60, end: start + 260 },
    { side: 'client', name: 'resultFetch', start: start + 260, end: start + 300 },
  ];
  const jobManager: QueryPhase[] = [
    { side: 'cluster', name: 'scheduling', start: start - 5, end: start + 40 },
    { side: 'cluster', name: 'deploying', start: start + 40, end: start + 100 },
    { side: 'cluster', name: 'running', start: start + 100, end: start + 250 },
  ];
  return {
    seq: null,
    statementId: STATEMENT_ID,
    statement: statementRow().statement,
    literalsKept: false,
    source: '127.0.0.1:9261',
    jobId: JOB_ID,
    outcome: 'SUCCEEDED',
    start,
    end: start + 300,
    e2eMs: 300,
    admittedAt: start + 2,
    acceptedAt: start + 50,
    runningAt: start + 60,
    terminalAt: start + 260,
    partsMs: { admissionWait: 2, submit: 50, jobStartWait: 10, clusterRun: 200, resultFetch: 40 },
    requests: 5,
    collectRetries: 0,
    phases: cluster ? [...client, ...jobManager] : client,
    jobStatus: cluster ? 'FINISHED' : null,
    ...partial,
  };
}
