/**
 * Where the hub's data starts, and what that does to a chart's time axis. A range that reaches before it (a young
 * hub: "last 1 h" of a hub up 4 minutes) is drawn from where the data starts, with a small margin, instead of a flat
 * stretch with the data squeezed into its last pixels; a range the data covers is drawn as it is. Pure functions
 * over epoch ms, so the rule is tested without a browser.
 */

/** A time window in epoch ms. */
export interface Bounds {
  readonly from: number;
  readonly to: number;
}

/** Room left of the first data: this share of what the axis shows. */
export const AXIS_START_MARGIN = 0.02;

/** The axis never shows less than this (a hub up a few seconds), unless the range itself is shorter. */
export const MIN_AXIS_SPAN_MS = 60_000;

/**
 * {@link dataStart} when it lies inside {@link range} (after its start, before its end): the range reaches before
 * the first data. Undefined when the data covers the range, when the range ends before the data starts (it holds
 * nothing), or when the start is not known.
 */
export function dataStartInRange(range: Bounds, dataStart: number | undefined): number | undefined {
  return dataStart != null && dataStart > range.from && dataStart < range.to ? dataStart : undefined;
}

/**
 * The time axis of a chart over {@link range}: from where the hub's data starts ({@link dataStart}, less a margin of
 * {@link AXIS_START_MARGIN} of what the axis shows, and at least {@link MIN_AXIS_SPAN_MS} before the range's end)
 * when the range reaches before it; else the range itself. {@link earliestPoint}, the chart's first point, is never
 * cut off: a point stamped before the hub's start (a step bucket's start, another clock) moves the axis back to it.
 */
export function axisBounds(range: Bounds, dataStart: number | undefined, earliestPoint?: number): Bounds {
  const first = dataStart != null && earliestPoint != null ? Math.min(dataStart, earliestPoint) : dataStart;
  const start = dataStartInRange(range, first);
  if (start == null) {
    return range;
  }
  const margin = (range.to - start) * AXIS_START_MARGIN;
  const from = Math.max(range.from, Math.min(start - margin, range.to - MIN_AXIS_SPAN_MS));
  return from > range.from ? { from, to: range.to } : range;
}
