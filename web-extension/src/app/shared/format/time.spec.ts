import { formatDateTime, fromDateTimeLocal, toDateTimeLocal } from './time';

describe('time formatting', () => {
  it('roundTripsADateTimeLocalValue', () => {
    const t = new Date(2025, 10, 22, 14, 3).getTime();
    expect(toDateTimeLocal(t)).toBe('2025-11-22T14:03');
    expect(fromDateTimeLocal('2025-11-22T14:03')).toBe(t);
  });

  it('rejectsMalformedInput', () => {
    expect(fromDateTimeLocal('')).toBeNaN();
    expect(fromDateTimeLocal('yesterday')).toBeNaN();
  });

  it('formatsLocalDateAndTime', () => {
    expect(formatDateTime(new Date(2025, 0, 2, 3, 4, 5).getTime())).toBe('2025-01-02 03:04:05');
    expect(formatDateTime(null)).toBe('–');
  });
});
