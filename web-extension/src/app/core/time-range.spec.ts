import { parseViewParams, stepFor, timeWindow, ViewParams, viewQueryParams } from './time-range';

function fromQuery(query: Record<string, string | null>): ViewParams {
  return parseViewParams((name) => query[name] ?? null);
}

describe('time range', () => {
  it('defaults to fifteen minutes with refresh on', () => {
    expect(fromQuery({})).toEqual({ range: '15m', refresh: true });
  });

  it('reads a preset and a paused refresh from the URL', () => {
    expect(fromQuery({ range: '1h', refresh: 'off' })).toEqual({ range: '1h', refresh: false });
  });

  it('falls back to the default for an unknown range', () => {
    expect(fromQuery({ range: '7y' }).range).toBe('15m');
    expect(fromQuery({ range: 'custom', from: '20', to: '10' }).range).toBe('15m');
    expect(fromQuery({ range: 'custom', from: 'x', to: '10' }).range).toBe('15m');
  });

  it('round-trips every view through query parameters', () => {
    const views: ViewParams[] = [
      { range: '5m', refresh: true },
      { range: '24h', refresh: false },
      { range: 'custom', from: 1_700_000_000_000, to: 1_700_000_900_000, refresh: false },
    ];
    for (const view of views) {
      const query = viewQueryParams(view);
      expect(fromQuery(query)).toEqual(view);
    }
  });

  it('writes refresh only when it differs from the default', () => {
    expect(viewQueryParams({ range: '1h', refresh: true })).toEqual({ range: '1h', from: null, to: null, refresh: null });
    expect(viewQueryParams({ range: '1h', refresh: false })['refresh']).toBe('off');
  });

  it('asks the hub for a relative window for presets', () => {
    const w = timeWindow({ range: '1h', refresh: true });
    expect(w.fromParam).toBe('-1h');
    expect(w.toParam).toBeUndefined();
    expect(w.stepParam).toBe('12s');
    expect(w.bounds(10_000_000)).toEqual({ from: 10_000_000 - 3_600_000, to: 10_000_000 });
  });

  it('asks for absolute bounds for a custom range', () => {
    const w = timeWindow({ range: 'custom', from: 1000, to: 601_000, refresh: true });
    expect(w.fromParam).toBe('1000');
    expect(w.toParam).toBe('601000');
    expect(w.bounds(99)).toEqual({ from: 1000, to: 601_000 });
  });

  it('chooses a step of about 300 points and at least one second', () => {
    expect(stepFor(5 * 60_000)).toBe('1s');
    expect(stepFor(24 * 3_600_000)).toBe('288s');
    expect(stepFor(10)).toBe('1s');
  });
});
