import { formatBytes, formatCount, formatDuration, formatMs, formatPercent, formatRate, formatValue, MISSING } from './units';

describe('units', () => {
  it('formats bytes in binary units (KiB, MiB, GiB)', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KiB');
    expect(formatBytes(3 * 1024 * 1024)).toBe('3 MiB');
    expect(formatBytes(24.5 * 1024 * 1024)).toBe('24.5 MiB');
    expect(formatBytes(1.25 * 1024 ** 3)).toBe('1.25 GiB');
  });

  it('formats durations in the largest unit that fits', () => {
    expect(formatMs(0)).toBe('0 ms');
    expect(formatMs(0.87)).toBe('0.87 ms');
    expect(formatMs(850)).toBe('850 ms');
    expect(formatMs(1250)).toBe('1.25 s');
    expect(formatMs(150_000)).toBe('2.5 min');
    expect(formatMs(5_400_000)).toBe('1.5 h');
  });

  it('formats uptimes in whole units', () => {
    expect(formatDuration(3_660_000)).toBe('1 h 1 min');
    expect(formatDuration(90_000_000)).toBe('1 d 1 h');
    expect(formatDuration(30_000)).toBe('30 s');
  });

  it('formats ratios as percent', () => {
    expect(formatPercent(0.934)).toBe('93.4 %');
    expect(formatPercent(1)).toBe('100 %');
    expect(formatPercent(0)).toBe('0 %');
  });

  it('formats counts and rates compactly', () => {
    expect(formatCount(42)).toBe('42');
    expect(formatCount(12_345)).toBe('12.3k');
    expect(formatCount(2_500_000)).toBe('2.5M');
    expect(formatCount(0.5)).toBe('0.5');
    expect(formatRate(1200)).toBe('1.2k /s');
  });

  it('shows a dash for a missing value instead of 0 or NaN', () => {
    for (const unit of ['bytes', 'ms', 'percent', 'perSecond', 'count'] as const) {
      expect(formatValue(null, unit)).toBe(MISSING);
      expect(formatValue(undefined, unit)).toBe(MISSING);
      expect(formatValue(Number.NaN, unit)).toBe(MISSING);
      expect(formatValue(Number.POSITIVE_INFINITY, unit)).toBe(MISSING);
    }
  });

  it('picks the formatter by unit', () => {
    expect(formatValue(2048, 'bytes')).toBe('2 KiB');
    expect(formatValue(2000, 'ms')).toBe('2 s');
    expect(formatValue(0.5, 'percent')).toBe('50 %');
    expect(formatValue(3, 'perSecond')).toBe('3 /s');
  });
});
