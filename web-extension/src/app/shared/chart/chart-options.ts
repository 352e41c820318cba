import type { EChartsCoreOption } from 'echarts/core';

import { ChartPoint } from '../../api/series/series-math';
import { escapeHtml } from '../format/escape';
import { formatDateTime } from '../format/time';
import { formatValue, Unit } from '../format/units';

/** One line or bar series of a time chart. {@link name} may be user input (job, operator names). */
export interface ChartSeries {
  /** Stable across refreshes, so `[merge]` updates the same series instead of adding one. */
  readonly id: string;
  readonly name: string;
  readonly points: readonly ChartPoint[];
  readonly kind?: 'line' | 'bar';
  /** 0 = left axis ({@link TimeChartSpec.units}[0]), 1 = right axis. */
  readonly axis?: 0 | 1;
  readonly dashed?: boolean;
  readonly area?: boolean;
  readonly stack?: string;
}

/** The parts of a chart that decide its layout; a change of them rebuilds the options, data only merges. */
export interface TimeChartSpec {
  readonly units: readonly Unit[];
  readonly window?: { readonly from: number; readonly to: number };
}

/** Parameters ECharts passes to a tooltip formatter (the subset used here). */
export interface TooltipParam {
  readonly seriesIndex?: number;
  readonly seriesName?: string;
  readonly value?: unknown;
  readonly color?: unknown;
  readonly axisValue?: unknown;
}

const LEGEND_NAME_MAX = 48;

/** Ant Design's palette, as the rest of the panel (and Flink's dashboard) uses it. */
export const PALETTE = ['#1890ff', '#52c41a', '#fa8c16', '#722ed1', '#13c2c2', '#eb2f96', '#faad14', '#2f54eb',
  '#a0d911', '#f5222d'];

const BINARY_STEPS = [1, 2, 4, 5, 8, 10, 16, 20, 25, 32, 50, 64, 100, 128, 200, 250, 256, 500, 512];

/**
 * A tick interval for a bytes axis that lands on round binary values (5 MiB, 256 KiB), about five ticks up to
 * {@link max}; ECharts' own choice is decimal and labels "4.77 MiB, 9.54 MiB". Undefined lets ECharts choose.
 */
export function niceBytesInterval(max: number): number | undefined {
  if (!(max > 0) || !Number.isFinite(max)) {
    return undefined;
  }
  const target = max / 5;
  let base = 1;
  while (target / base >= 1024) {
    base *= 1024;
  }
  const step = BINARY_STEPS.find((s) => s * base >= target) ?? 1024;
  return step * base;
}

/** For a bytes axis: round binary ticks up to a top that is a whole number of ticks. */
function bytesAxis(unit: Unit, series: readonly ChartSeries[], axis: number): { interval?: number; max?: number } {
  if (unit !== 'bytes') {
    return {};
  }
  const max = maxOnAxis(series, axis);
  const interval = niceBytesInterval(max);
  return interval ? { interval, max: Math.max(interval, Math.ceil(max / interval) * interval) } : {};
}

function maxOnAxis(series: readonly ChartSeries[], axis: number): number {
  let max = 0;
  for (const s of series) {
    if ((s.axis ?? 0) === axis) {
      for (const [, v] of s.points) {
        if (v != null && v > max) {
          max = v;
        }
      }
    }
  }
  return max;
}

/** The time of the earliest point of {@link series} (a gap too), or undefined when they have none. */
export function firstPointTime(series: readonly ChartSeries[]): number | undefined {
  let first: number | undefined;
  for (const s of series) {
    for (const [t] of s.points) {
      if (first === undefined || t < first) {
        first = t;
      }
    }
  }
  return first;
}

/** Shortens long names in the legend (which ECharts draws on the canvas, as text). */
export function legendName(name: string): string {
  return name.length > LEGEND_NAME_MAX ? `${name.slice(0, LEGEND_NAME_MAX - 1)}…` : name;
}

function valueOf(param: TooltipParam): { t: number | undefined; v: number | null } {
  const value = param.value;
  if (Array.isArray(value)) {
    const t = typeof value[0] === 'number' ? value[0] : undefined;
    return { t, v: typeof value[1] === 'number' ? value[1] : null };
  }
  return { t: typeof param.axisValue === 'number' ? param.axisValue : undefined, v: null };
}

/**
 * The tooltip as an HTML string in which everything that is not the panel's own markup is escaped: series
 * names are user input, and ECharts inserts the formatter's result as HTML.
 */
export function tooltipHtml(
  params: TooltipParam | readonly TooltipParam[],
  series: readonly ChartSeries[],
  units: readonly Unit[],
): string {
  const list = Array.isArray(params) ? params : [params as TooltipParam];
  if (!list.length) {
    return '';
  }
  const time = valueOf(list[0]).t ?? (typeof list[0].axisValue === 'number' ? list[0].axisValue : undefined);
  const rows = list.map((p) => {
    const s = p.seriesIndex != null ? series[p.seriesIndex] : undefined;
    const unit = units[s?.axis ?? 0] ?? units[0] ?? 'count';
    const color = typeof p.color === 'string' ? p.color : '#999';
    return (
      `<div class="fi-tt-row"><span class="fi-tt-dot" style="background:${escapeHtml(color)}"></span>` +
      `<span class="fi-tt-name">${escapeHtml(p.seriesName ?? s?.name ?? '')}</span>` +
      `<b class="fi-tt-value">${escapeHtml(formatValue(valueOf(p).v, unit))}</b></div>`
    );
  });
  return `<div class="fi-tt-time">${escapeHtml(formatDateTime(time))}</div>${rows.join('')}`;
}

function toEchartsSeries(s: ChartSeries): Record<string, unknown> {
  const line = (s.kind ?? 'line') === 'line';
  return {
    id: s.id,
    name: s.name,
    type: line ? 'line' : 'bar',
    yAxisIndex: s.axis ?? 0,
    data: s.points,
    ...(s.stack ? { stack: s.stack } : {}),
    ...(line
      ? {
          showSymbol: s.points.length < 60,
          symbolSize: 5,
          connectNulls: false,
          lineStyle: { width: 1.6, ...(s.dashed ? { type: 'dashed' } : {}) },
          ...(s.area ? { areaStyle: { opacity: 0.25 } } : {}),
        }
      : { barMaxWidth: 14 }),
  };
}

/** The full options of a time chart: axes with units, escaped tooltip, legend, zoom, and the series. */
export function buildTimeChartOptions(series: readonly ChartSeries[], spec: TimeChartSpec): EChartsCoreOption {
  const units = spec.units.length ? spec.units : (['count'] as const);
  return {
    animation: false,
    color: PALETTE,
    grid: { left: 16, right: units.length > 1 ? 16 : 24, top: 44, bottom: 8, containLabel: true },
    legend: {
      type: 'scroll',
      top: 0,
      left: 0,
      right: 0,
      itemWidth: 14,
      itemHeight: 8,
      textStyle: { fontSize: 12, color: 'rgba(0,0,0,0.65)' },
      formatter: legendName,
    },
    tooltip: {
      trigger: 'axis',
      confine: true,
      renderMode: 'html',
      className: 'fi-tooltip',
      formatter: (params: TooltipParam | TooltipParam[]) => tooltipHtml(params, series, units),
    },
    xAxis: {
      type: 'time',
      min: spec.window?.from,
      max: spec.window?.to,
      axisLabel: { hideOverlap: true, color: 'rgba(0,0,0,0.55)' },
      axisLine: { lineStyle: { color: '#d9d9d9' } },
    },
    // Units are on every axis label ("5 MiB", "200 ms", "50 %", "1k /s"), so the axes need no title.
    yAxis: units.map((unit, i) => ({
      type: 'value',
      position: i === 0 ? 'left' : 'right',
      min: 0,
      ...bytesAxis(unit, series, i),
      max: unit === 'percent' ? 1 : bytesAxis(unit, series, i).max,
      splitLine: { show: i === 0, lineStyle: { color: '#f0f0f0' } },
      axisLabel: { formatter: (v: number) => formatValue(v, unit), color: 'rgba(0,0,0,0.55)' },
    })),
    dataZoom: [{ type: 'inside', xAxisIndex: 0, filterMode: 'none' }],
    series: series.map(toEchartsSeries),
  };
}

/** The update streamed through `[merge]` on each refresh: new data (and window) for the same series. */
export function buildTimeChartMerge(series: readonly ChartSeries[], spec: TimeChartSpec): EChartsCoreOption {
  return {
    xAxis: { min: spec.window?.from, max: spec.window?.to },
    yAxis: spec.units.map((unit, i) => bytesAxis(unit, series, i)),
    series: series.map((s) => ({ id: s.id, data: s.points, showSymbol: s.points.length < 60 })),
  };
}

/** A key that changes only when the chart's layout must be rebuilt (series added/removed, units changed). */
export function layoutKey(series: readonly ChartSeries[], spec: TimeChartSpec): string {
  return JSON.stringify([spec.units, series.map((s) => [s.id, s.name, s.kind, s.axis, s.dashed, s.area, s.stack])]);
}
