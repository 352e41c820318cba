import { Series } from './series.model';
import { numeric, seriesLabel, toChartPoints } from './series-math';

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

  it('names a series by its labels', () => {
    expect(seriesLabel(s([], { job_name: 'wc', vertex_name: 'Source' }), ['job_name', 'vertex_name'])).toBe('wc / Source');
    expect(seriesLabel(s([]), ['job_name'])).toBe('m');
  });

  it('breaks the line where samples are missing for longer than five usual intervals, as over a restart', () => {
    const points = toChartPoints(s([[0, 1], [5_000, 2], [10_000, 3], [15_000, 4], [300_000, 5], [305_000, 6]]));
    expect(points).toEqual([[0, 1], [5_000, 2], [10_000, 3], [15_000, 4], [20_000, null], [300_000, 5], [305_000, 6]]);
    const steady = toChartPoints(s([[0, 1], [5_000, 2], [11_000, 3], [15_000, 4]]));
    expect(steady.every(([, v]) => v !== null)).toBe(true);
  });
});
