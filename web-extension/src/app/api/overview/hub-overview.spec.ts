import { hubStartMillis } from './hub-overview';

describe('hubStartMillis', () => {
  it("is the answer's arrival less the hub's uptime", () => {
    expect(hubStartMillis({ uptimeMs: 240_000, startedAt: '2020-01-01T00:00:00Z' }, 1_700_000_240_000)).toBe(1_700_000_000_000);
  });

  it('falls back to the start the hub states', () => {
    expect(hubStartMillis({ startedAt: '2023-11-14T22:13:20Z' }, 1_700_000_240_000)).toBe(1_700_000_000_000);
    expect(hubStartMillis({ uptimeMs: 240_000, startedAt: '2023-11-14T22:13:20Z' }, undefined)).toBe(1_700_000_000_000);
  });

  it('is unknown without an answer, an uptime or a readable start', () => {
    expect(hubStartMillis(undefined, 1_700_000_000_000)).toBeUndefined();
    expect(hubStartMillis({}, 1_700_000_000_000)).toBeUndefined();
    expect(hubStartMillis({ startedAt: 'yesterday' }, undefined)).toBeUndefined();
  });
});
