/**
 * The answer of `/api/v1/compare` (the hub's CompareEndpoint): shapes generated from its records
 * (compare.generated.ts), with the strings the panel switches on narrowed to the values the endpoint writes.
 */
import type * as api from './compare.generated';

export type { CompareCell, CompareChartPoint, CompareColumn, JobSettings } from './compare.generated';

/** The settings the compare view heads its columns with, in this order. */
export type SettingKey =
  | 'stateBackend'
  | 'incremental'
  | 'changelog'
  | 'materializationIntervalMs'
  | 'checkpointIntervalMs'
  | 'checkpointMode'
  | 'unaligned'
  | 'parallelism';

/** Units as the API names them. */
export type CompareUnit = '1/h' | 'ms' | 'bytes' | 'records/s' | 'ms/s';

export interface CompareRow extends api.CompareRow {
  readonly unit: CompareUnit;
}

export interface CompareResponse extends api.CompareResponse {
  readonly mode: 'jobs' | 'ranges';
  /** The settings (names of JobSettings' fields) whose values differ between columns. */
  readonly differences: readonly SettingKey[];
  readonly rows: readonly CompareRow[];
}
