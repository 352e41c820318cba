import { ChangeDetectionStrategy, Component, computed, effect, inject, signal } from '@angular/core';
import { toSignal } from '@angular/core/rxjs-interop';
import { ActivatedRoute, convertToParamMap, Router, RouterLink } from '@angular/router';

import {
  CompareSelection,
  MAX_COLUMNS,
  MIN_COLUMNS,
  parseSelection,
  selectionParams,
} from '../../api/compare/compare-selection';
import { CompareChartPoint } from '../../api/compare/compare.model';
import { CompareService } from '../../api/compare/compare.service';
import { JobsService } from '../../api/jobs/jobs.service';
import { liveQuery } from '../../core/live-query';
import { ChartCard } from '../../shared/chart/chart-card';
import { UNIT_PIPES } from '../../shared/format/unit-pipes';
import { ApiErrorState } from '../../shared/ui/api-error-state';
import { AsyncView } from '../../shared/ui/async-view';
import { StatePanel } from '../../shared/ui/state-panel';
import { StatusTag } from '../../shared/ui/status-tag';
import { AlignedSeries, CompareChart } from './compare-chart';
import { formatChange, formatStat, settingLines, toCsv, toMarkdown } from './compare-format';

/** `YYYY-MM-DDTHH:mm` in local time, as `<input type="datetime-local">` reads and writes it. */
export function toLocalInput(ms: number): string {
  const d = new Date(ms - new Date(ms).getTimezoneOffset() * 60_000);
  return d.toISOString().slice(0, 16);
}

function fromLocalInput(value: string): number {
  return value ? new Date(value).getTime() : NaN;
}

/**
 * Jobs side by side (2–4, running or finished and still in the hub), or one job in two time ranges: columns headed
 * by what differs in their configuration, the checkpoint-evaluation table from `/api/v1/compare` (each value with
 * its unit, its samples and its change against the first column), and the per-checkpoint figures overlaid by time
 * since start. The URL holds the selection in the API's own syntax; the table exports as CSV and Markdown.
 */
@Component({
  selector: 'fi-compare-page',
  imports: [RouterLink, ApiErrorState, AsyncView, ChartCard, StatePanel, StatusTag, CompareChart, ...UNIT_PIPES],
  changeDetection: ChangeDetectionStrategy.OnPush,
  templateUrl: './compare-page.html',
})
export class ComparePage {
  private readonly router = inject(Router);
  private readonly compareApi = inject(CompareService);
  private readonly jobsApi = inject(JobsService);
  private readonly query = toSignal(inject(ActivatedRoute).queryParamMap, { initialValue: convertToParamMap({}) });

  protected readonly minColumns = MIN_COLUMNS;
  protected readonly maxColumns = MAX_COLUMNS;

  /** The selection the URL holds, or undefined. */
  protected readonly selection = computed<CompareSelection | undefined>(
    () => parseSelection((name) => this.query().get(name)),
    { equal: (a, b) => JSON.stringify(a) === JSON.stringify(b) },
  );
  protected readonly hasSelectionParams = computed(
    () => this.query().has('jobs') || this.query().has('job') || this.query().has('ranges'),
  );

  protected readonly jobs = liveQuery(() => this.jobsApi.list());
  protected readonly comparison = liveQuery(() => {
    const s = this.selection();
    return s ? this.compareApi.compare(s) : undefined;
  });

  // ---- the picker: its draft follows the URL and is applied to it
  protected readonly mode = signal<'jobs' | 'ranges'>('jobs');
  protected readonly picked = signal<readonly string[]>([]);
  protected readonly rangeJob = signal('');
  protected readonly rangeInputs = signal<readonly string[]>(['', '', '', '']);

  constructor() {
    effect(() => {
      const s = this.selection();
      if (s?.mode === 'jobs') {
        this.mode.set('jobs');
        this.picked.set(s.jobs);
      } else if (s?.mode === 'ranges') {
        this.mode.set('ranges');
        this.rangeJob.set(s.job);
        this.rangeInputs.set(s.ranges.slice(0, 2).flatMap(([f, t]) => [toLocalInput(f), toLocalInput(t)]));
      }
    });
  }

  /** Jobs to pick from: running first, then newest first. */
  protected readonly candidates = computed(() =>
    [...(this.jobs.value()?.jobs ?? [])].sort(
      (a, b) => Number(a.terminal) - Number(b.terminal) || (b.createdAt ?? 0) - (a.createdAt ?? 0),
    ),
  );

  protected toggle(jobId: string, on: boolean): void {
    const now = this.picked().filter((id) => id !== jobId);
    this.picked.set(on && now.length < MAX_COLUMNS ? [...now, jobId] : now);
  }

  protected setRangeInput(i: number, value: string): void {
    this.rangeInputs.update((list) => list.map((v, j) => (j === i ? value : v)));
  }

  /** The picker's draft as a selection, or undefined while it is incomplete. */
  protected readonly draft = computed<CompareSelection | undefined>(() => {
    if (this.mode() === 'jobs') {
      const ids = this.picked();
      return ids.length >= MIN_COLUMNS ? { mode: 'jobs', jobs: ids } : undefined;
    }
    const [f1, t1, f2, t2] = this.rangeInputs().map(fromLocalInput);
    const ok = this.rangeJob() && f1 < t1 && f2 < t2;
    return ok ? { mode: 'ranges', job: this.rangeJob(), ranges: [[f1, t1], [f2, t2]] } : undefined;
  });

  protected apply(): void {
    const s = this.draft();
    if (s) {
      void this.router.navigate([], { queryParams: selectionParams(s), queryParamsHandling: 'merge' });
    }
  }

  // ---- the answer
  protected readonly columns = computed(() => {
    const r = this.comparison.value();
    return (r?.columns ?? []).map((c) => ({ column: c, settings: settingLines(c, r?.differences ?? []) }));
  });

  protected readonly rows = computed(() =>
    (this.comparison.value()?.rows ?? []).map((row) => ({
      row,
      cells: row.cells.map((cell) => ({
        cell,
        text: formatStat(cell.value, row.unit),
        change: formatChange(cell.changePercent),
      })),
    })),
  );

  private aligned(value: (p: CompareChartPoint) => number | null): AlignedSeries[] {
    return (this.comparison.value()?.columns ?? []).map((c) => ({
      name: c.label,
      points: c.checkpoints.map((p) => [p.sinceStartMs, value(p)] as const),
    }));
  }

  /** The compared figures, overlaid: async-phase size and duration per checkpoint, full size over time. */
  protected readonly charts = computed(() => [
    { id: 'async-size', title: 'Checkpointed (async-phase) size per checkpoint', unit: 'bytes' as const,
      series: this.aligned((p) => p.checkpointedSize) },
    { id: 'duration', title: 'Duration per checkpoint', unit: 'ms' as const, series: this.aligned((p) => p.durationMs) },
    { id: 'full-size', title: 'Full size over time', unit: 'bytes' as const, series: this.aligned((p) => p.fullSize) },
  ]);

  protected download(kind: 'csv' | 'md'): void {
    const r = this.comparison.value();
    if (!r) {
      return;
    }
    const text = kind === 'csv' ? toCsv(r) : toMarkdown(r);
    const blob = new Blob([text], { type: kind === 'csv' ? 'text/csv;charset=utf-8' : 'text/markdown;charset=utf-8' });
    const url = URL.createObjectURL(blob);
    const a = document.createElement('a');
    a.href = url;
    a.download = `flink-insight-compare.${kind}`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 1_000);
  }
}
