import { ChangeDetectionStrategy, Component, computed, inject, input } from '@angular/core';
import { RouterLink } from '@angular/router';

import { CheckpointRecord } from '../../api/checkpoints/checkpoints.model';
import { checkpointsInWindow, CheckpointsService } from '../../api/checkpoints/checkpoints.service';
import { JobsService } from '../../api/jobs/jobs.service';
import { HubOverview } from '../../api/overview/hub-overview';
import { flinkJobUrl, missingCapability, OverviewService } from '../../api/overview/overview.service';
import { ChartPoint, toChartPoints } from '../../api/series/series-math';
import { SeriesService } from '../../api/series/series.service';
import { axisBounds } from '../../core/data-start';
import { liveQuery } from '../../core/live-query';
import { ViewState } from '../../core/view-state';
import { ChartSeries, firstPointTime } from '../../shared/chart/chart-options';
import { ChartCard } from '../../shared/chart/chart-card';
import { UNIT_PIPES } from '../../shared/format/unit-pipes';
import { percentiles } from '../../shared/stats/percentiles';
import { StatCard } from '../../shared/ui/stat-card';
import { ApiErrorState } from '../../shared/ui/api-error-state';
import { AsyncView } from '../../shared/ui/async-view';
import { CapabilityNote } from '../../shared/ui/capability-note';
import { StatePanel } from '../../shared/ui/state-panel';
import { StatusTag } from '../../shared/ui/status-tag';
import { CheckpointTable } from './checkpoint-table';

const JOB_ID = /^[0-9a-f]{32}$/i;

function points(list: readonly CheckpointRecord[], value: (c: CheckpointRecord) => number | null | undefined): ChartPoint[] {
  return list.map((c) => [c.endTime, value(c) ?? null]);
}

/**
 * One job: each checkpoint's async-phase upload against its full size, phase durations, duration percentiles
 * over the range (P50/P99/P99.9: the median and the slow tail), and per-vertex latency and throughput.
 */
@Component({
  selector: 'fi-job-detail-page',
  imports: [
    RouterLink, ChartCard, StatCard, StatePanel, AsyncView, ApiErrorState, StatusTag, CheckpointTable, CapabilityNote,
    ...UNIT_PIPES,
  ],
  changeDetection: ChangeDetectionStrategy.OnPush,
  templateUrl: './job-detail-page.html',
})
export class JobDetailPage {
  private readonly view = inject(ViewState);
  private readonly jobsApi = inject(JobsService);
  private readonly checkpointsApi = inject(CheckpointsService);
  private readonly seriesApi = inject(SeriesService);
  private readonly overviewApi = inject(OverviewService);
  private readonly hubStart = inject(HubOverview).dataStart;

  /** Bound from the route parameter `:jobId`. */
  readonly jobId = input.required<string>();

  protected readonly validId = computed(() => JOB_ID.test(this.jobId()));
  private readonly id = computed(() => (this.validId() ? this.jobId().toLowerCase() : undefined));

  protected readonly job = liveQuery(() => {
    const id = this.id();
    return id ? this.jobsApi.job(id) : undefined;
  });
  protected readonly checkpoints = liveQuery(() => {
    const id = this.id();
    return id ? this.checkpointsApi.forJob(id) : undefined;
  });
  protected readonly latency = liveQuery(() => {
    const id = this.id();
    return id ? this.seriesApi.series('insight_vertex_latency_ms', this.view.window(), { job_id: id }) : undefined;
  });
  protected readonly throughput = liveQuery(() => {
    const id = this.id();
    return id
      ? this.seriesApi.series('insight_vertex_records_out_per_second', this.view.window(), { job_id: id })
      : undefined;
  });
  protected readonly overview = liveQuery(() => this.overviewApi.overview());

  /** The requests whose first failure shows once at the top, by what they load. */
  protected readonly requests = {
    'the job': this.job,
    checkpoints: this.checkpoints,
    'latency figures': this.latency,
    'throughput figures': this.throughput,
  };

  protected readonly jobName = computed(
    () => this.job.value()?.jobName ?? this.checkpoints.value()?.jobs[0]?.jobName ?? this.jobId(),
  );
  protected readonly flinkUrl = computed(() => flinkJobUrl(this.overview.value(), this.jobId()));
  protected readonly flinkVersion = computed(() => this.overview.value()?.flinkVersion);
  /** What an older Flink does not report: phase figures of each checkpoint, per-task detail, job events. */
  protected readonly missing = computed(() => {
    const overview = this.overview.value();
    return {
      phases: missingCapability(overview, 'checkpoint-phase-figures'),
      tasks: missingCapability(overview, 'checkpoint-task-spans'),
      events: missingCapability(overview, 'job-events'),
    };
  });

  protected readonly bounds = computed(() => {
    this.checkpoints.value();
    this.latency.value();
    this.throughput.value();
    return this.view.window().bounds(Date.now());
  });

  /** The charts' time axis: the range, or from where the hub's data starts when the range reaches before it. */
  protected readonly axis = computed(() =>
    axisBounds(
      this.bounds(),
      this.hubStart(),
      firstPointTime([...this.sizeSeries(), ...this.phaseSeries(), ...this.latencySeries(), ...this.throughputSeries()]),
    ),
  );

  private readonly all = computed(() => this.checkpoints.value()?.jobs[0]?.checkpoints ?? []);
  /** Oldest first, for the charts. */
  protected readonly inWindow = computed(() => checkpointsInWindow(this.all(), this.bounds().from, this.bounds().to));
  /** Newest first, for the table. */
  protected readonly newestFirst = computed(() => [...this.inWindow()].reverse());

  protected readonly stats = computed(() => {
    const list = this.inWindow();
    const completed = list.filter((c) => c.status === 'COMPLETED');
    return {
      completed: completed.length,
      failed: list.filter((c) => c.status === 'FAILED').length,
      duration: percentiles(completed.map((c) => c.durationMs)),
      async: percentiles(completed.map((c) => c.max.asyncDurationMs)),
      size: percentiles(completed.map((c) => c.checkpointedSize)),
    };
  });

  protected readonly sizeSeries = computed<ChartSeries[]>(() => {
    const list = this.inWindow();
    return [
      { id: 'checkpointed', name: 'checkpointed size (async-phase upload)', kind: 'bar', points: points(list, (c) => c.checkpointedSize) },
      { id: 'full', name: 'full size', axis: 1, points: points(list, (c) => c.fullSize) },
    ];
  });

  protected readonly phaseSeries = computed<ChartSeries[]>(() => {
    const list = this.inWindow();
    return [
      { id: 'duration', name: 'duration (end to end)', points: points(list, (c) => c.durationMs) },
      { id: 'async', name: 'async phase (max)', points: points(list, (c) => c.max.asyncDurationMs) },
      { id: 'sync', name: 'sync phase (max)', points: points(list, (c) => c.max.syncDurationMs) },
      { id: 'alignment', name: 'alignment (max)', dashed: true, points: points(list, (c) => c.max.alignmentDurationMs) },
      { id: 'delay', name: 'start delay (max)', dashed: true, points: points(list, (c) => c.max.startDelayMs) },
    ];
  });

  protected readonly latencySeries = computed<ChartSeries[]>(() =>
    (this.latency.value()?.series ?? []).map((s) => {
      const quantile = s.labels['quantile'] === '0.5' ? 'p50' : s.labels['quantile'] === '0.99' ? 'p99' : s.labels['quantile'];
      return {
        id: `latency:${s.labels['vertex_id']}:${s.labels['quantile']}`,
        name: `${s.labels['vertex_name'] || s.labels['vertex_id']} ${quantile}`,
        dashed: quantile === 'p50',
        points: toChartPoints(s),
      };
    }),
  );

  protected readonly throughputSeries = computed<ChartSeries[]>(() =>
    (this.throughput.value()?.series ?? []).map((s) => ({
      id: `out:${s.labels['vertex_id']}`,
      name: s.labels['vertex_name'] || s.labels['vertex_id'] || s.name,
      points: toChartPoints(s),
    })),
  );
}
