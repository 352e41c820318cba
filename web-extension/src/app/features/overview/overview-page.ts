import { ChangeDetectionStrategy, Component, computed, inject } from '@angular/core';
import { RouterLink } from '@angular/router';

import { checkpointsInWindow, CheckpointsService, MAX_CHECKPOINTS } from '../../api/checkpoints/checkpoints.service';
import { ClientService } from '../../api/client/client.service';
import { JobsService } from '../../api/jobs/jobs.service';
import { HubOverview } from '../../api/overview/hub-overview';
import { missingCapability, OverviewService } from '../../api/overview/overview.service';
import { seriesLabel, toChartPoints } from '../../api/series/series-math';
import { SeriesService } from '../../api/series/series.service';
import { axisBounds } from '../../core/data-start';
import { liveQuery } from '../../core/live-query';
import { ViewState } from '../../core/view-state';
import { ChartSeries, firstPointTime } from '../../shared/chart/chart-options';
import { ChartCard } from '../../shared/chart/chart-card';
import { MsPipe } from '../../shared/format/unit-pipes';
import { formatBytes, formatCount, formatDuration, formatMs, formatPercent } from '../../shared/format/units';
import { percentiles } from '../../shared/stats/percentiles';
import { BreakdownBar } from '../../shared/ui/breakdown-bar';
import { queryBreakdown } from '../../shared/ui/query-breakdown';
import { StatCard } from '../../shared/ui/stat-card';
import { ApiErrorState } from '../../shared/ui/api-error-state';
import { AsyncView } from '../../shared/ui/async-view';
import { CapabilityNote } from '../../shared/ui/capability-note';

/** How many jobs / vertices a cluster-wide chart draws: beyond that a chart is unreadable. */
export const MAX_CHART_JOBS = 6;
export const MAX_LATENCY_SERIES = 10;

/**
 * Checkpoints to ask per job: enough to cover the range at one checkpoint every 5 s, within the hub's cap. The
 * API has no time filter yet, so a short range asks for fewer.
 */
export function checkpointLimit(spanMs: number): number {
  return Math.min(MAX_CHECKPOINTS, Math.max(50, Math.ceil(spanMs / 5_000)));
}

/**
 * Cluster-wide view: client-path efficiency (pool hit rate, channel reuse, collect retries), where a query's time
 * goes next to the cluster-side job time, checkpoint async-phase size and duration trends, and streaming latency.
 */
@Component({
  selector: 'fi-overview-page',
  imports: [RouterLink, ChartCard, StatCard, AsyncView, ApiErrorState, BreakdownBar, MsPipe, CapabilityNote],
  changeDetection: ChangeDetectionStrategy.OnPush,
  templateUrl: './overview-page.html',
})
export class OverviewPage {
  private readonly view = inject(ViewState);
  private readonly clientApi = inject(ClientService);
  private readonly jobsApi = inject(JobsService);
  private readonly checkpointsApi = inject(CheckpointsService);
  private readonly seriesApi = inject(SeriesService);
  private readonly overviewApi = inject(OverviewService);
  private readonly hubStart = inject(HubOverview).dataStart;

  protected readonly client = liveQuery(() => this.clientApi.figures());
  protected readonly process = liveQuery(() => this.overviewApi.overview());
  /** Set when the cluster's Flink gives no per-phase checkpoint figures (before 2.2): the async line stays empty. */
  protected readonly noPhaseFigures = computed(() => missingCapability(this.process.value(), 'checkpoint-phase-figures'));
  protected readonly jobs = liveQuery(() => this.jobsApi.list());
  protected readonly checkpoints = liveQuery(() => this.checkpointsApi.all(checkpointLimit(this.view.window().spanMs)));
  protected readonly latency = liveQuery(() =>
    this.seriesApi.series('insight_vertex_latency_ms', this.view.window(), { quantile: '0.99' }, MAX_LATENCY_SERIES),
  );

  /** The requests whose first failure shows once at the top, by what they load. */
  protected readonly requests = {
    'client figures': this.client,
    jobs: this.jobs,
    checkpoints: this.checkpoints,
    'latency figures': this.latency,
  };

  /** The chart window, recomputed with each answer so the axis follows "now". */
  protected readonly bounds = computed(() => {
    this.checkpoints.value();
    this.latency.value();
    return this.view.window().bounds(Date.now());
  });

  /** The charts' time axis: the range, or from where the hub's data starts when the range reaches before it. */
  protected readonly axis = computed(() =>
    axisBounds(
      this.bounds(),
      this.hubStart(),
      firstPointTime([...this.latencySeries(), ...this.sizeSeries(), ...this.durationSeries()]),
    ),
  );

  protected readonly clientStats = computed(() => {
    const c = this.client.value();
    if (!c?.available) {
      return undefined;
    }
    return {
      hitRate: formatPercent(c.pool.hitRate),
      hitDetail: `${formatCount(c.pool.hits)} hits · ${formatCount(c.pool.misses)} misses`,
      reuse: formatPercent(c.channels.reuseRatio),
      reuseDetail: `${formatCount(c.channels.reused)} reused · ${formatCount(c.channels.opened)} opened`,
      retries: formatCount(c.collect.retriesPerQuery),
      retriesDetail: `${formatCount(c.collect.retries)} retries · ${formatCount(c.queries.submitted)} queries`,
      e2e: `${formatMs(c.queries.e2eLatencyMs.p50)} · ${formatMs(c.queries.e2eLatencyMs.p99)}`,
    };
  });

  /**
   * Where the hub keeps its history across restarts (`stores.dir`): when it last wrote, how much is on disk, what it
   * read back; or that it keeps it in memory only, or that writes fail. Only on a JobManager that answered.
   */
  protected readonly storesDir = computed(() => {
    const p = this.process.value();
    if (p?.role !== 'jobmanager' || p.storesDir === undefined) {
      return undefined;
    }
    const d = p.storesDir;
    if (d === null) {
      return { value: 'memory only', detail: 'lost when the JobManager restarts: set stores.dir, or turn on high availability' };
    }
    if (d.lastFailure) {
      return { value: 'not written', detail: `in memory only while ${d.dir} fails: ${d.lastFailure}` };
    }
    const written = d.lastWriteAt ? Date.parse(d.lastWriteAt) : Number.NaN;
    const readBack = d.restoredSamples ? ` · read back ${formatCount(d.restoredSamples)} samples` : '';
    return {
      value: Number.isFinite(written) ? `written ${formatDuration(Math.max(0, Date.now() - written))} ago` : 'not written yet',
      detail: `${formatBytes(d.bytesOnDisk)} in ${d.dir}${readBack}`,
    };
  });

  /** Cluster-side time (created → terminal) of the jobs that ended in the range: short queries' jobs. */
  protected readonly clusterTime = computed(() => {
    const list = this.jobs.value()?.jobs ?? [];
    const { from, to } = this.bounds();
    const ended = list.filter((j) => j.terminal && j.endedAt != null && j.endedAt >= from && j.endedAt <= to);
    return { ...percentiles(ended.map((j) => j.clusterLatencyMs)), running: list.filter((j) => !j.terminal).length };
  });

  protected readonly breakdown = computed(() => queryBreakdown(this.client.value()));

  private readonly checkpointJobs = computed(() => {
    const { from, to } = this.bounds();
    return (this.checkpoints.value()?.jobs ?? [])
      .map((j) => ({ job: j, inWindow: checkpointsInWindow(j.checkpoints, from, to) }))
      .filter((j) => j.inWindow.length > 0)
      .slice(0, MAX_CHART_JOBS);
  });

  protected readonly checkpointCount = computed(() =>
    this.checkpointJobs().reduce((n, j) => n + j.inWindow.length, 0),
  );

  protected readonly sizeSeries = computed<ChartSeries[]>(() =>
    this.checkpointJobs().map(({ job, inWindow }) => ({
      id: `size:${job.jobId}`,
      name: job.jobName || job.jobId,
      points: inWindow.map((c) => [c.endTime, c.checkpointedSize]),
    })),
  );

  protected readonly durationSeries = computed<ChartSeries[]>(() =>
    this.checkpointJobs().flatMap(({ job, inWindow }) => [
      {
        id: `duration:${job.jobId}`,
        name: `${job.jobName || job.jobId} · duration`,
        points: inWindow.map((c) => [c.endTime, c.durationMs] as [number, number | null]),
      },
      {
        id: `async:${job.jobId}`,
        name: `${job.jobName || job.jobId} · async phase (max)`,
        dashed: true,
        points: inWindow.map((c) => [c.endTime, c.max.asyncDurationMs ?? null] as [number, number | null]),
      },
    ]),
  );

  protected readonly latencySeries = computed<ChartSeries[]>(() =>
    (this.latency.value()?.series ?? []).map((s) => ({
      id: `latency:${s.labels['job_id']}:${s.labels['vertex_id']}`,
      name: seriesLabel(s, ['job_name', 'vertex_name']),
      points: toChartPoints(s),
    })),
  );
}
