import type { EChartsCoreOption } from 'echarts/core';

import { PhaseSide, QUERY_PHASES, QueryView } from '../../api/statements/statements.model';
import { escapeHtml } from '../../shared/format/escape';
import { formatMs } from '../../shared/format/units';

/** One phase of one query, in ms from the query's start (a cluster phase can start before it: another clock). */
export interface TimelineBar {
  /** The query's row, 0 = the first query given. */
  readonly row: number;
  readonly start: number;
  readonly end: number;
}

/** One phase across the queries: a series of the chart, an entry of its legend. */
export interface TimelinePhase {
  /** `client:submit`: stable across refreshes, so `[merge]` updates the same series. */
  readonly id: string;
  readonly side: PhaseSide;
  readonly name: string;
  /** `client · submit`, as the legend and the tooltip say it. */
  readonly label: string;
  readonly color: string;
  readonly bars: readonly TimelineBar[];
}

/** What a timeline chart draws: one row per query, each phase a bar on one axis of ms since the query's start. */
export interface Timeline {
  /** The rows' labels (canvas text): `#1 SUCCEEDED 1.25 s`. */
  readonly rows: readonly string[];
  readonly phases: readonly TimelinePhase[];
  /** The axis' extent in ms: from 0 (or the earliest cluster phase) to the longest query's end. */
  readonly min: number;
  readonly max: number;
}

const CLIENT_COLORS = ['#faad14', '#1890ff', '#13c2c2', '#52c41a', '#722ed1'];
const CLUSTER_COLORS = ['#ffa39e', '#f5222d', '#a8071a'];
const OTHER_COLOR = '#8c8c8c';

function phaseColor(side: PhaseSide, index: number): string {
  const colors = side === 'client' ? CLIENT_COLORS : CLUSTER_COLORS;
  return colors[index] ?? OTHER_COLOR;
}

/** The label of a query's row: its rank, outcome and end-to-end time. */
export function rowLabel(query: QueryView, index: number): string {
  return `#${index + 1} ${query.outcome} ${formatMs(query.e2eMs)}`;
}

/** True when the hub joined the JobManager's side of the query (its job's phases). */
export function hasClusterPhases(query: QueryView): boolean {
  return query.phases.some((p) => p.side === 'cluster');
}

/**
 * The timeline of {@link queries}: every known phase (the legend always lists them, in the order they happen),
 * then any phase the hub names that this panel does not know yet; each bar in ms from its query's start.
 */
export function timelineOf(queries: readonly QueryView[]): Timeline {
  const phases = QUERY_PHASES.map((p) => ({
    id: `${p.side}:${p.name}`,
    side: p.side,
    name: p.name,
    label: `${p.side} · ${p.label}`,
    color: phaseColor(p.side, QUERY_PHASES.filter((q) => q.side === p.side).indexOf(p)),
    bars: [] as TimelineBar[],
  }));
  const byId = new Map(phases.map((p) => [p.id, p]));
  let min = 0;
  let max = 0;
  queries.forEach((query, row) => {
    max = Math.max(max, query.end - query.start);
    for (const phase of query.phases) {
      const side: PhaseSide = phase.side === 'cluster' ? 'cluster' : 'client';
      const id = `${side}:${phase.name}`;
      let series = byId.get(id);
      if (!series) {
        series = { id, side, name: phase.name, label: `${side} · ${phase.name}`, color: OTHER_COLOR, bars: [] };
        byId.set(id, series);
        phases.push(series);
      }
      const start = phase.start - query.start;
      const end = Math.max(start, phase.end - query.start);
      series.bars.push({ row, start, end });
      min = Math.min(min, start);
      max = Math.max(max, end);
    }
  });
  return { rows: queries.map(rowLabel), phases, min, max };
}

/** A key that changes only when the chart's layout must be rebuilt: the rows' count and the phases. */
export function timelineLayoutKey(timeline: Timeline): string {
  return JSON.stringify([timeline.rows.length, timeline.phases.map((p) => p.id)]);
}

/** Parameters ECharts passes to the tooltip formatter (the subset used). */
export interface TimelineTooltipParam {
  readonly seriesName?: string;
  /** The row's label (the category). */
  readonly name?: string;
  readonly data?: unknown;
  readonly color?: unknown;
}

/** A phase's bar as the chart holds it: its length on the axis, and where it starts and ends for the tooltip. */
interface BarItem {
  readonly value: number;
  readonly start: number;
  readonly end: number;
}

/**
 * The tooltip of one bar: the query, the phase and its duration, and when it started and ended after the query's
 * start. Everything is escaped (ECharts inserts it as HTML), though it holds no statement text.
 */
export function timelineTooltip(param: TimelineTooltipParam): string {
  const bar = (param.data ?? {}) as Partial<BarItem>;
  const start = typeof bar.start === 'number' ? bar.start : null;
  const end = typeof bar.end === 'number' ? bar.end : null;
  const color = typeof param.color === 'string' ? param.color : '#999';
  const duration = start != null && end != null ? end - start : null;
  return (
    `<div class="fi-tt-time">${escapeHtml(param.name ?? '')}</div>` +
    `<div class="fi-tt-row"><span class="fi-tt-dot" style="background:${escapeHtml(color)}"></span>` +
    `<span class="fi-tt-name">${escapeHtml(param.seriesName ?? '')}</span>` +
    `<b class="fi-tt-value">${escapeHtml(formatMs(duration))}</b></div>` +
    `<div class="fi-tt-time">${escapeHtml(formatMs(start))} → ${escapeHtml(formatMs(end))} after the query started</div>`
  );
}

/**
 * Each phase as two stacked bar series: an invisible gap from where the side's previous phase ended (0 for its
 * first) to where this one starts, then the phase itself. The stack sums every value whatever its sign
 * (`stackStrategy: 'all'`), so a cluster phase that starts before the query (the JobManager's clock runs behind the
 * gateway's) sits left of 0. The client's phases stack in one bar of the row, the JobManager's in the other. A phase
 * a query lacks is 0, never null: ECharts stacks each value on the previous series' sum, and a missing one would
 * take every later bar of the row with it.
 */
function stackedSeries(timeline: Timeline): { gap: number[]; phase: (BarItem | 0)[] }[] {
  const rows = timeline.rows.length;
  const reached: Record<PhaseSide, number[]> = { client: new Array(rows).fill(0), cluster: new Array(rows).fill(0) };
  return timeline.phases.map((p) => {
    const gap: number[] = new Array(rows).fill(0);
    const phase: (BarItem | 0)[] = new Array(rows).fill(0);
    for (const bar of p.bars) {
      gap[bar.row] = bar.start - reached[p.side][bar.row];
      phase[bar.row] = { value: bar.end - bar.start, start: bar.start, end: bar.end };
      reached[p.side][bar.row] = bar.end;
    }
    return { gap, phase };
  });
}

function seriesOf(timeline: Timeline, withLayout: boolean): Record<string, unknown>[] {
  const data = stackedSeries(timeline);
  return timeline.phases.flatMap((p, i) => {
    const common = { type: 'bar', stack: p.side, stackStrategy: 'all', barMaxWidth: 14 };
    return [
      { id: `gap:${p.id}`, data: data[i].gap,
        ...(withLayout ? { ...common, name: `gap before ${p.label}`, silent: true, tooltip: { show: false },
          itemStyle: { color: 'transparent' }, emphasis: { disabled: true } } : {}) },
      { id: p.id, data: data[i].phase,
        ...(withLayout ? { ...common, name: p.label, itemStyle: { color: p.color } } : {}) },
    ];
  });
}

function axisMin(timeline: Timeline): number {
  return Math.min(0, timeline.min);
}

/**
 * The chart's options: queries down, ms since each query's start across, a legend entry per phase (a key: hiding a
 * phase would move the ones after it), a tooltip per bar.
 */
export function buildTimelineOptions(timeline: Timeline): EChartsCoreOption {
  return {
    animation: false,
    grid: { left: 16, right: 24, top: 56, bottom: 28, containLabel: true },
    legend: {
      type: 'scroll',
      top: 0,
      left: 0,
      right: 0,
      itemWidth: 14,
      itemHeight: 8,
      selectedMode: false,
      textStyle: { fontSize: 12, color: 'rgba(0,0,0,0.65)' },
      data: timeline.phases.map((p) => p.label),
    },
    tooltip: { trigger: 'item', confine: true, className: 'fi-tooltip', formatter: timelineTooltip },
    xAxis: {
      type: 'value',
      min: axisMin(timeline),
      name: 'since the query started',
      nameLocation: 'middle',
      nameGap: 24,
      axisLabel: { formatter: (v: number) => formatMs(v), hideOverlap: true, color: 'rgba(0,0,0,0.55)' },
      axisLine: { lineStyle: { color: '#d9d9d9' } },
      splitLine: { lineStyle: { color: '#f0f0f0' } },
    },
    yAxis: {
      type: 'category',
      inverse: true,
      data: timeline.rows,
      axisTick: { show: false },
      axisLabel: { color: 'rgba(0,0,0,0.65)' },
      axisLine: { lineStyle: { color: '#d9d9d9' } },
    },
    dataZoom: [{ type: 'inside', xAxisIndex: 0, filterMode: 'none' }],
    series: seriesOf(timeline, true),
  };
}

/** The update streamed through `[merge]` on each refresh: the rows, the axis' start and each phase's bars. */
export function buildTimelineMerge(timeline: Timeline): EChartsCoreOption {
  return {
    xAxis: { min: axisMin(timeline) },
    yAxis: { data: timeline.rows },
    series: seriesOf(timeline, false),
  };
}
