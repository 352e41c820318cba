import { Series } from './series.model';
import { numeric, seriesLabel } from './series-math';

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
});
