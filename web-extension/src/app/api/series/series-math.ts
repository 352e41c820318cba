import { Series, SeriesValue } from './series.model';

/** A chart point: `[epoch ms, value]`, value null for a gap. */
export type ChartPoint = [number, number | null];

/** A finite number, or null for NaN/Inf (a chart cannot draw those). */
export function numeric(value: SeriesValue | null | undefined): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

export function toChartPoints(series: Series): ChartPoint[] {
  return series.points.map(([t, v]) => [t, numeric(v)]);
}

/** A short human name for a series from some of its labels, e.g. "wordcount / Source: words". */
export function seriesLabel(series: Series, keys: readonly string[]): string {
  const parts = keys.map((k) => series.labels[k]).filter((v): v is string => !!v);
  return parts.length ? parts.join(' / ') : series.name;
}
