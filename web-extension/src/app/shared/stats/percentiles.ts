/**
 * Percentiles of a set of durations (the panel's checkpoint durations): the median, the tail (P99, P99.9) where a
 * slow async phase shows, and the maximum.
 */
export interface Percentiles {
  readonly count: number;
  readonly p50: number | null;
  readonly p99: number | null;
  readonly p999: number | null;
  readonly max: number | null;
}

/**
 * The nearest-rank percentile: the smallest value with at least p % of the values at or below it. With few
 * values the high percentiles are the maximum, which is the honest answer.
 */
export function percentile(sortedAscending: readonly number[], p: number): number | null {
  if (!sortedAscending.length) {
    return null;
  }
  const rank = Math.ceil((p / 100) * sortedAscending.length);
  return sortedAscending[Math.min(sortedAscending.length, Math.max(1, rank)) - 1];
}

export function percentiles(values: readonly (number | null | undefined)[]): Percentiles {
  const sorted = values.filter((v): v is number => typeof v === 'number' && Number.isFinite(v)).sort((a, b) => a - b);
  return {
    count: sorted.length,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    p999: percentile(sorted, 99.9),
    max: sorted.length ? sorted[sorted.length - 1] : null,
  };
}
