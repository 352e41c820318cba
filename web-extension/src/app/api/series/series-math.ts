import { Series, SeriesValue } from './series.model';

/** A chart point: `[epoch ms, value]`, value null for a gap. */
export type ChartPoint = [number, number | null];

/** A finite number, or null for NaN/Inf (a chart cannot draw those). */
export function numeric(value: SeriesValue | null | undefined): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** How many usual sampling intervals without a sample break a line. */
const GAP_INTERVALS = 5;

export function toChartPoints(series: Series): ChartPoint[] {
  return withGaps(series.points.map(([t, v]) => [t, numeric(v)]));
}

/**
 * Breaks the line where samples are missing for longer than {@link GAP_INTERVALS} usual intervals (the median one):
 * while a JobManager restarted, or a job stopped reporting, the chart shows a gap, not a straight line across it.
 */
export function withGaps(points: readonly ChartPoint[]): ChartPoint[] {
  if (points.length < 3) {
    return [...points];
  }
  const intervals = points.slice(1).map((p, i) => p[0] - points[i][0]).sort((a, b) => a - b);
  const usual = intervals[Math.floor(intervals.length / 2)];
  if (!(usual > 0)) {
    return [...points];
  }
  const out: ChartPoint[] = [points[0]];
  for (let i = 1; i < points.length; i++) {
    if (points[i][0] - points[i - 1][0] > GAP_INTERVALS * usual) {
      out.push([points[i - 1][0] + usual, null]);
    }
    out.push(points[i]);
  }
  return out;
}

/** A short human name for a series from some of its labels, e.g. "wordcount / Source: words". */
export function seriesLabel(series: Series, keys: readonly string[]): string {
  const parts = keys.map((k) => series.labels[k]).filter((v): v is string => !!v);
  return parts.length ? parts.join(' / ') : series.name;
}
