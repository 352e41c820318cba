import { AXIS_START_MARGIN, axisBounds, dataStartInRange, MIN_AXIS_SPAN_MS } from './data-start';

const NOW = 1_700_000_000_000;
const MIN = 60_000;
const HOUR = 60 * MIN;
const lastHour = { from: NOW - HOUR, to: NOW };

describe('axisBounds', () => {
  it('keeps a range the data covers as it is', () => {
    expect(axisBounds(lastHour, NOW - 2 * HOUR)).toEqual(lastHour);
    expect(axisBounds(lastHour, NOW - HOUR)).toEqual(lastHour);
  });

  it('keeps the range while the start of the data is not known', () => {
    expect(axisBounds(lastHour, undefined)).toEqual(lastHour);
    expect(axisBounds(lastHour, undefined, NOW - 4 * MIN)).toEqual(lastHour);
  });

  it('starts where the data starts, with a small margin, on a hub younger than the range', () => {
    const hubStart = NOW - 4 * MIN;
    const axis = axisBounds(lastHour, hubStart);
    expect(axis.to).toBe(NOW);
    expect(axis.from).toBe(hubStart - 4 * MIN * AXIS_START_MARGIN);
    // The data fills the axis but for the margin: 4 minutes of 4.08, not 4 of 60.
    expect((axis.to - hubStart) / (axis.to - axis.from)).toBeGreaterThan(0.97);
  });

  it('never starts before the range', () => {
    // The data starts 30 s after the range: the margin would reach before the range's start.
    expect(axisBounds(lastHour, NOW - HOUR + 30_000)).toEqual(lastHour);
  });

  it('shows at least a minute of a hub up a few seconds', () => {
    expect(axisBounds(lastHour, NOW - 5_000)).toEqual({ from: NOW - MIN_AXIS_SPAN_MS, to: NOW });
    // ...but never more than the range.
    const lastHalfMinute = { from: NOW - 30_000, to: NOW };
    expect(axisBounds(lastHalfMinute, NOW - 5_000)).toEqual(lastHalfMinute);
  });

  it('never cuts off a point stamped before the hub started', () => {
    const hubStart = NOW - 4 * MIN;
    const bucketStart = hubStart - 10_000;
    const axis = axisBounds(lastHour, hubStart, bucketStart);
    expect(axis.from).toBeLessThanOrEqual(bucketStart);
    expect(axis.from).toBe(bucketStart - (NOW - bucketStart) * AXIS_START_MARGIN);
    // A later first point (a job that started after the hub) does not move the axis past the hub's start.
    expect(axisBounds(lastHour, hubStart, NOW - MIN)).toEqual(axisBounds(lastHour, hubStart));
  });

  it('keeps a range that ends before the data starts: it holds nothing', () => {
    const past = { from: NOW - 3 * HOUR, to: NOW - 2 * HOUR };
    expect(axisBounds(past, NOW - HOUR)).toEqual(past);
  });
});

describe('dataStartInRange', () => {
  it('is the data start only when the range reaches before it and ends after it', () => {
    expect(dataStartInRange(lastHour, NOW - 4 * MIN)).toBe(NOW - 4 * MIN);
    expect(dataStartInRange(lastHour, NOW - 2 * HOUR)).toBeUndefined();
    expect(dataStartInRange(lastHour, NOW + MIN)).toBeUndefined();
    expect(dataStartInRange(lastHour, undefined)).toBeUndefined();
  });
});
