/**
 * The panel's view parameters as they live in the URL (`?range=15m&refresh=off`, or `?range=custom&from=&to=`),
 * and the time window they select. Pure functions, so the URL round-trip is tested without a router.
 */

export const RANGE_PRESETS = ['5m', '15m', '1h', '6h', '24h'] as const;
export type RangePreset = (typeof RANGE_PRESETS)[number];
export type RangeKey = RangePreset | 'custom';

export const DEFAULT_RANGE: RangePreset = '15m';
export const REFRESH_INTERVAL_MS = 5_000;
/** About this many points per chart: enough detail, and far below the series API's 2,000-point cap. */
export const TARGET_POINTS = 300;

const PRESET_MS: Record<RangePreset, number> = {
  '5m': 5 * 60_000,
  '15m': 15 * 60_000,
  '1h': 60 * 60_000,
  '6h': 6 * 60 * 60_000,
  '24h': 24 * 60 * 60_000,
};

/** What the URL says about the view. {@link from}/{@link to} are epoch ms, set only for a custom range. */
export interface ViewParams {
  readonly range: RangeKey;
  readonly from?: number;
  readonly to?: number;
  readonly refresh: boolean;
}

/** The window to fetch: API parameters (relative to the hub's clock for presets) and absolute bounds. */
export interface TimeWindow {
  readonly key: RangeKey;
  /** `from` for the series API: `-15m` for a preset (the hub resolves "now"), epoch ms for a custom range. */
  readonly fromParam: string;
  readonly toParam?: string;
  /** Bucket width for the series API, so every series of a chart shares timestamps. */
  readonly stepParam: string;
  readonly spanMs: number;
  /** Absolute bounds at `now` (browser clock), to filter checkpoints and to pin chart axes. */
  bounds(now: number): { from: number; to: number };
}

export function isRangePreset(value: string | null | undefined): value is RangePreset {
  return value != null && (RANGE_PRESETS as readonly string[]).includes(value);
}

function epochMillis(value: string | null): number | undefined {
  if (value == null || !/^\d{1,15}$/.test(value)) {
    return undefined;
  }
  return Number(value);
}

/** Reads the view from query parameters; anything unknown falls back to the defaults rather than failing. */
export function parseViewParams(get: (name: string) => string | null): ViewParams {
  const refresh = get('refresh') !== 'off';
  const range = get('range');
  const from = epochMillis(get('from'));
  const to = epochMillis(get('to'));
  if ((range === 'custom' || range == null) && from != null && to != null && from < to) {
    return { range: 'custom', from, to, refresh };
  }
  return { range: isRangePreset(range) ? range : DEFAULT_RANGE, refresh };
}

/** The query parameters that describe {@link view}; null removes a parameter when merged into the URL. */
export function viewQueryParams(view: ViewParams): Record<string, string | null> {
  const custom = view.range === 'custom' && view.from != null && view.to != null;
  return {
    range: custom ? 'custom' : view.range === 'custom' ? DEFAULT_RANGE : view.range,
    from: custom ? String(view.from) : null,
    to: custom ? String(view.to) : null,
    refresh: view.refresh ? null : 'off',
  };
}

export function sameView(a: ViewParams, b: ViewParams): boolean {
  return a.range === b.range && a.from === b.from && a.to === b.to && a.refresh === b.refresh;
}

/** A step of about spanMs / TARGET_POINTS, in whole seconds (the hub samples at second resolution at best). */
export function stepFor(spanMs: number): string {
  return `${Math.max(1, Math.round(spanMs / TARGET_POINTS / 1000))}s`;
}

export function timeWindow(view: ViewParams): TimeWindow {
  if (view.range === 'custom' && view.from != null && view.to != null) {
    const from = view.from;
    const to = view.to;
    return {
      key: 'custom',
      fromParam: String(from),
      toParam: String(to),
      stepParam: stepFor(to - from),
      spanMs: to - from,
      bounds: () => ({ from, to }),
    };
  }
  const preset = isRangePreset(view.range) ? view.range : DEFAULT_RANGE;
  const span = PRESET_MS[preset];
  return {
    key: preset,
    fromParam: `-${preset}`,
    stepParam: stepFor(span),
    spanMs: span,
    bounds: (now) => ({ from: now - span, to: now }),
  };
}
