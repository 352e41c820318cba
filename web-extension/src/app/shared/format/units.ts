/**
 * Every figure the panel shows carries its unit: bytes in binary units (KiB, MiB — what Flink's dashboard uses),
 * durations in ms/s/min/h, ratios as %, rates per second. A missing value is an en dash, never "0" or "NaN".
 */

export type Unit = 'bytes' | 'ms' | 'percent' | 'perSecond' | 'count';

export const MISSING = '–';

function isNumber(value: number | null | undefined): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

/** Up to 3 significant digits, and no trailing ".0". */
function compact(value: number): string {
  const abs = Math.abs(value);
  const digits = abs >= 100 ? 0 : abs >= 10 ? 1 : 2;
  return String(Number(value.toFixed(digits)));
}

const BYTE_UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];

export function formatBytes(value: number | null | undefined): string {
  if (!isNumber(value)) {
    return MISSING;
  }
  let v = value;
  let i = 0;
  while (Math.abs(v) >= 1024 && i < BYTE_UNITS.length - 1) {
    v /= 1024;
    i++;
  }
  return `${i === 0 ? Math.round(v) : compact(v)} ${BYTE_UNITS[i]}`;
}

export function formatMs(value: number | null | undefined): string {
  if (!isNumber(value)) {
    return MISSING;
  }
  const abs = Math.abs(value);
  if (abs < 1_000) {
    return `${compact(value)} ms`;
  }
  if (abs < 60_000) {
    return `${compact(value / 1_000)} s`;
  }
  if (abs < 3_600_000) {
    return `${compact(value / 60_000)} min`;
  }
  return `${compact(value / 3_600_000)} h`;
}

/** A long duration in whole units, `1 h 2 min`, `3 d 4 h`: for uptimes. */
export function formatDuration(ms: number | null | undefined): string {
  if (!isNumber(ms)) {
    return MISSING;
  }
  if (ms < 60_000) {
    return formatMs(ms);
  }
  const minutes = Math.floor(ms / 60_000);
  const days = Math.floor(minutes / 1_440);
  const hours = Math.floor((minutes % 1_440) / 60);
  const mins = minutes % 60;
  if (days > 0) {
    return `${days} d ${hours} h`;
  }
  return hours > 0 ? `${hours} h ${mins} min` : `${mins} min`;
}

/** A ratio (0..1) as a percentage. */
export function formatPercent(ratio: number | null | undefined): string {
  if (!isNumber(ratio)) {
    return MISSING;
  }
  const pct = ratio * 100;
  return `${pct === 100 || pct === 0 ? pct : compact(pct)} %`;
}

const SI = [
  { limit: 1e9, suffix: 'G' },
  { limit: 1e6, suffix: 'M' },
  { limit: 1e3, suffix: 'k' },
];

export function formatCount(value: number | null | undefined): string {
  if (!isNumber(value)) {
    return MISSING;
  }
  for (const { limit, suffix } of SI) {
    if (Math.abs(value) >= limit) {
      return `${compact(value / limit)}${suffix}`;
    }
  }
  return Number.isInteger(value) ? String(value) : compact(value);
}

export function formatRate(value: number | null | undefined): string {
  return isNumber(value) ? `${formatCount(value)} /s` : MISSING;
}

export function formatValue(value: number | null | undefined, unit: Unit): string {
  switch (unit) {
    case 'bytes':
      return formatBytes(value);
    case 'ms':
      return formatMs(value);
    case 'percent':
      return formatPercent(value);
    case 'perSecond':
      return formatRate(value);
    default:
      return formatCount(value);
  }
}
