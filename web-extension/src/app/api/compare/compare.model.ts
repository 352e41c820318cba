/** The answer of `/api/v1/compare` (the hub's CompareEndpoint). */

/** A job's checkpoint-relevant configuration as the hub read it from Flink's REST API; null = not reported. */
export interface JobSettings {
  readonly checkpointing: boolean;
  readonly stateBackend: string | null;
  readonly checkpointStorage: string | null;
  readonly incremental: boolean | null;
  /** `job` (the job's own configuration) or `cluster` (the JobManager's, which a job may override unseen). */
  readonly incrementalSource: string | null;
  readonly changelog: boolean | null;
  readonly materializationIntervalMs: number | null;
  readonly changelogStorage: string | null;
  readonly checkpointIntervalMs: number | null;
  readonly checkpointMode: string | null;
  readonly unaligned: boolean | null;
  readonly parallelism: number | null;
}

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

/** A completed checkpoint for the charts; sinceStartMs counts from the column's start. */
export interface CompareChartPoint {
  readonly id: number;
  readonly triggerTime: number;
  readonly sinceStartMs: number;
  readonly durationMs: number | null;
  readonly checkpointedSize: number | null;
  readonly fullSize: number | null;
}

export interface CompareColumn {
  readonly label: string;
  readonly jobId: string;
  /** User input. */
  readonly jobName: string | null;
  readonly status: string | null;
  readonly from: number;
  readonly to: number;
  readonly settings: JobSettings | null;
  readonly checkpoints: readonly CompareChartPoint[];
}

/** One statistic of one column: value null without samples; changePercent against the first column. */
export interface CompareCell {
  readonly value: number | null;
  readonly samples: number;
  readonly changePercent: number | null;
}

/** Units as the API names them. */
export type CompareUnit = '1/h' | 'ms' | 'bytes' | 'records/s' | 'ms/s';

export interface CompareRow {
  readonly key: string;
  readonly label: string;
  readonly unit: CompareUnit;
  readonly cells: readonly CompareCell[];
}

export interface CompareResponse {
  readonly mode: 'jobs' | 'ranges';
  readonly columns: readonly CompareColumn[];
  readonly differences: readonly SettingKey[];
  readonly rows: readonly CompareRow[];
}
