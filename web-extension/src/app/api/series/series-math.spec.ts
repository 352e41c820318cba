import { Series } from './series.model';
import { addByTime, intervalQuotient, maxByTime, numeric, seriesLabel, sumByTime } from './series-math';

const s = (points: [number, number | 'NaN' | '+Inf'][], labels: Record<string, string> = {}): Series => ({
  name: 'm',
  labels,
  points,
});

describe('series math', () => {
  it('treats non-finite values as gaps', () => {
    expect(numeric('NaN')).toBeNull();
    expect(numeric('+Inf')).toBeNull();
    expect(numeric(3)).toBe(3);
  });

  it('sums series by timestamp', () => {
    expect(sumByTime([s([[1, 1], [2, 2]]), s([[2, 10], [3, 'NaN']])])).toEqual([[1, 1], [2, 12]]);
  });

  it('keeps the worst quantile by timestamp', () => {
    expect(maxByTime([s([[1, 5]]), s([[1, 7], [2, 1]])])).toEqual([[1, 7], [2, 1]]);
  });

  it('computes per-interval ratios of cumulative counters', () => {
    const hits: [number, number][] = [[0, 0], [10, 9], [20, 9], [30, 19]];
    const lookups: [number, number][] = [[0, 0], [10, 10], [20, 10], [30, 30]];
    // 9 of 10 in the first interval, nothing in the second (a gap, not 0 %), 10 of 20 in the third.
    expect(intervalQuotient(hits, lookups)).toEqual([[10, 0.9], [20, null], [30, 0.5]]);
  });

  it('shows a gap where a counter restarted', () => {
    expect(intervalQuotient([[0, 50], [10, 2]], [[0, 60], [10, 3]])).toEqual([[10, null]]);
  });

  it('adds cumulative series where both have a point', () => {
    expect(addByTime([[1, 1], [2, 2]], [[2, 3]])).toEqual([[2, 5]]);
  });

  it('names a series by its labels', () => {
    expect(seriesLabel(s([], { job_name: 'wc', vertex_name: 'Source' }), ['job_name', 'vertex_name'])).toBe('wc / Source');
    expect(seriesLabel(s([]), ['job_name'])).toBe('m');
  });
});
