/** A value of the series API: a number, or Prometheus' spelling of the values JSON has no number for. */
export type SeriesValue = number | 'NaN' | '+Inf' | '-Inf';

/** `[epoch ms, value]`, oldest first. */
export type SeriesPoint = readonly [number, SeriesValue];

/** One series of `GET /api/v1/series`: its metric name, labels, and points. */
export interface Series {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly points: readonly SeriesPoint[];
}

/** `GET /api/v1/series?metric=&from=&to=&step=&<label>=`: the effective window and the matching series. */
export interface SeriesResponse {
  readonly metric: string;
  readonly from: number;
  readonly to: number;
  readonly step: number;
  readonly matched: number;
  readonly truncated: boolean;
  readonly series: readonly Series[];
}

/** `GET /api/v1/series/names?prefix=`: names of the metrics with history. */
export interface SeriesNamesResponse {
  readonly prefix: string;
  readonly truncated: boolean;
  readonly names: readonly string[];
}
