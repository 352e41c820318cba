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

/**
 * Sums several series point by point (the hub stamps every point with its step bucket, so the timestamps of
 * series fetched with one step line up). A timestamp missing from a series adds nothing.
 */
export function sumByTime(series: readonly Series[]): ChartPoint[] {
  const sums = new Map<number, number>();
  for (const s of series) {
    for (const [t, v] of s.points) {
      const n = numeric(v);
      if (n != null) {
        sums.set(t, (sums.get(t) ?? 0) + n);
      }
    }
  }
  return [...sums.entries()].sort((a, b) => a[0] - b[0]);
}

/** Keeps the largest value per timestamp (quantiles of several processes: the worst one). */
export function maxByTime(series: readonly Series[]): ChartPoint[] {
  const max = new Map<number, number>();
  for (const s of series) {
    for (const [t, v] of s.points) {
      const n = numeric(v);
      if (n != null) {
        const old = max.get(t);
        max.set(t, old == null ? n : Math.max(old, n));
      }
    }
  }
  return [...max.entries()].sort((a, b) => a[0] - b[0]);
}

/**
 * Per interval, how much {@link numerator} grew relative to {@link denominator}: `Δnum / Δden` between
 * consecutive timestamps present in both cumulative counters. Null where nothing happened (Δden = 0) or a counter
 * restarted (a negative Δ), so a quiet minute shows a gap instead of a made-up 0 %.
 */
export function intervalQuotient(numerator: readonly ChartPoint[], denominator: readonly ChartPoint[]): ChartPoint[] {
  const den = new Map<number, number>();
  for (const [t, v] of denominator) {
    if (v != null) {
      den.set(t, v);
    }
  }
  const out: ChartPoint[] = [];
  let prev: { t: number; n: number; d: number } | undefined;
  for (const [t, n] of numerator) {
    const d = den.get(t);
    if (n == null || d == null) {
      continue;
    }
    if (prev) {
      const dn = n - prev.n;
      const dd = d - prev.d;
      out.push([t, dn >= 0 && dd > 0 ? dn / dd : null]);
    }
    prev = { t, n, d };
  }
  return out;
}

/** Adds two cumulative series point by point (hits + misses = lookups); a timestamp needs both. */
export function addByTime(a: readonly ChartPoint[], b: readonly ChartPoint[]): ChartPoint[] {
  const other = new Map<number, number | null>(b.map(([t, v]) => [t, v]));
  const out: ChartPoint[] = [];
  for (const [t, v] of a) {
    const w = other.get(t);
    if (v != null && w != null) {
      out.push([t, v + w]);
    }
  }
  return out;
}

/** A short human name for a series from some of its labels, e.g. "wordcount / Source: words". */
export function seriesLabel(series: Series, keys: readonly string[]): string {
  const parts = keys.map((k) => series.labels[k]).filter((v): v is string => !!v);
  return parts.length ? parts.join(' / ') : series.name;
}
