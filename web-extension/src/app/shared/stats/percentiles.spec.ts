import { percentile, percentiles } from './percentiles';

describe('percentiles', () => {
  it('takes the value at the nearest rank, never one in between', () => {
    const values = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(values, 50)).toBe(50);
    expect(percentile(values, 99)).toBe(99);
    expect(percentile(values, 99.9)).toBe(100);
  });

  it('gives the maximum for high percentiles of few values', () => {
    const p = percentiles([300, 100, 200]);
    expect(p).toEqual({ count: 3, p50: 200, p99: 300, p999: 300, max: 300 });
  });

  it('ignores missing values, and is empty without any', () => {
    expect(percentiles([null, undefined, Number.NaN])).toEqual({ count: 0, p50: null, p99: null, p999: null, max: null });
    expect(percentiles([null, 5]).p50).toBe(5);
  });
});
