/**
 * `GET /api/v1/series?metric=&from=&to=&step=&<label>=` and `GET /api/v1/series/names?prefix=`: shapes generated
 * from the plugin's records (series.generated.ts), with the points typed as the endpoint writes them.
 */
import type * as api from './series.generated';

export type { SeriesNamesResponse } from './series.generated';

/** A value of the series API: a number, or Prometheus' spelling of the values JSON has no number for. */
export type SeriesValue = number | 'NaN' | '+Inf' | '-Inf';

/** `[epoch ms, value]`, oldest first. */
export type SeriesPoint = readonly [number, SeriesValue];

/** One series: its metric name, labels, and points (the record holds them as `Object[]`). */
export interface Series extends api.SeriesPoints {
  readonly points: readonly SeriesPoint[];
}

/** The effective window and the matching series. */
export interface SeriesResponse extends api.SeriesResponse {
  readonly series: readonly Series[];
}
