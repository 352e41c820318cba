import { ChangeDetectionStrategy, Component, computed, input } from '@angular/core';
import type { EChartsCoreOption } from 'echarts/core';
import { NgxEchartsDirective } from 'ngx-echarts';

import { escapeHtml } from '../../shared/format/escape';
import { formatValue, Unit } from '../../shared/format/units';
import { legendName, niceBytesInterval, PALETTE } from '../../shared/chart/chart-options';
import { StatePanel } from '../../shared/ui/state-panel';

/** One column's series: `[ms since the column's start, value]`. */
export interface AlignedSeries {
  readonly name: string;
  readonly points: readonly (readonly [number, number | null])[];
  readonly kind?: 'line' | 'scatter';
}

function maxValue(series: readonly AlignedSeries[]): number {
  return Math.max(0, ...series.flatMap((s) => s.points.map((p) => p[1] ?? 0)));
}

function bytesTicks(max: number): { interval?: number; max?: number } {
  const interval = niceBytesInterval(max);
  return interval ? { interval, max: Math.max(interval, Math.ceil(max / interval) * interval) } : {};
}

/** Time since start on an axis: `30 s`, `4 min`, `1 h 5 min`. */
export function formatSinceStart(ms: number): string {
  if (ms < 60_000) {
    return `${Math.round(ms / 1_000)} s`;
  }
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 60) {
    const seconds = Math.round((ms % 60_000) / 1_000);
    return seconds ? `${minutes} min ${seconds} s` : `${minutes} min`;
  }
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/**
 * The compare view's charts: one series per column, aligned by time since the column's start (jobs started at
 * different times, or one job's two ranges, overlay), the unit on both axes.
 */
@Component({
  selector: 'fi-compare-chart',
  imports: [NgxEchartsDirective, StatePanel],
  changeDetection: ChangeDetectionStrategy.OnPush,
  host: {
    class: 'fi-chart',
    '[attr.data-series]': 'series().length',
    '[attr.data-points]': 'pointCount()',
    '[attr.data-points-per-series]': 'pointsPerSeries()',
  },
  template: `
    @if (pointCount() === 0) {
      <fi-state kind="empty" message="No completed checkpoints in the compared windows yet." />
    } @else {
      <div echarts class="fi-chart-canvas" style="height: 280px" [options]="options()"></div>
    }
  `,
})
export class CompareChart {
  readonly series = input.required<readonly AlignedSeries[]>();
  readonly unit = input.required<Unit>();

  private readonly counts = computed(() => this.series().map((s) => s.points.filter((p) => p[1] != null).length));
  protected readonly pointCount = computed(() => this.counts().reduce((a, b) => a + b, 0));
  protected readonly pointsPerSeries = computed(() => this.counts().join(','));

  protected readonly options = computed<EChartsCoreOption>(() => {
    const unit = this.unit();
    const series = this.series();
    return {
      animation: false,
      color: PALETTE,
      grid: { left: 16, right: 24, top: 44, bottom: 28, containLabel: true },
      legend: { type: 'scroll', top: 0, left: 0, right: 0, formatter: legendName,
        textStyle: { fontSize: 12, color: 'rgba(0,0,0,0.65)' } },
      tooltip: {
        trigger: 'axis',
        confine: true,
        className: 'fi-tooltip',
        formatter: (params: { seriesName?: string; value?: unknown; color?: unknown }[]) => {
          const list = Array.isArray(params) ? params : [params];
          const at = Array.isArray(list[0]?.value) ? Number((list[0].value as unknown[])[0]) : 0;
          return `<div class="fi-tt-time">${escapeHtml(formatSinceStart(at))} since start</div>` +
            list.map((p) => {
              const v = Array.isArray(p.value) ? (p.value[1] as number | null) : null;
              const color = typeof p.color === 'string' ? p.color : '#999';
              return `<div class="fi-tt-row"><span class="fi-tt-dot" style="background:${escapeHtml(color)}"></span>` +
                `<span class="fi-tt-name">${escapeHtml(p.seriesName ?? '')}</span>` +
                `<b class="fi-tt-value">${escapeHtml(formatValue(v, unit))}</b></div>`;
            }).join('');
        },
      },
      xAxis: {
        type: 'value',
        min: 0,
        name: 'time since start',
        nameLocation: 'middle',
        nameGap: 24,
        axisLabel: { formatter: (v: number) => formatSinceStart(v), hideOverlap: true, color: 'rgba(0,0,0,0.55)' },
        axisLine: { lineStyle: { color: '#d9d9d9' } },
      },
      yAxis: {
        type: 'value',
        min: 0,
        // round binary ticks (5 MiB, 256 KiB) rather than ECharts' decimal ones (4.77 MiB)
        ...(unit === 'bytes' ? bytesTicks(maxValue(series)) : {}),
        splitLine: { lineStyle: { color: '#f0f0f0' } },
        axisLabel: { formatter: (v: number) => formatValue(v, unit), color: 'rgba(0,0,0,0.55)' },
      },
      dataZoom: [{ type: 'inside', xAxisIndex: 0, filterMode: 'none' }],
      series: series.map((s) => ({
        name: s.name,
        type: 'line',
        data: s.points,
        showSymbol: s.points.length < 120,
        symbolSize: 4,
        lineStyle: { width: 1.4 },
      })),
    };
  });
}
