import { formatDateTime, fromDateTimeLocal, toDateTimeLocal } from './time';

describe('time formatting', () => {
  it('round-trips a datetime-local value', () => {
    const t = new Date(2025, 10, 22, 14, 3).getTime();
    expect(toDateTimeLocal(t)).toBe('2025-11-22T14:03');
    expect(fromDateTimeLocal('2025-11-22T14:03')).toBe(t);
  });

  it('reads malformed input as no time at all (NaN)', () => {
    expect(fromDateTimeLocal('')).toBeNaN();
    expect(fromDateTimeLocal('yesterday')).toBeNaN();
  });

  it('formats the local date and time', () => {
    expect(formatDateTime(new Date(2025, 0, 2, 3, 4, 5).getTime())).toBe('2025-01-02 03:04:05');
    expect(formatDateTime(null)).toBe('–');
  });
});
