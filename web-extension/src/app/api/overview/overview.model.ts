/**
 * `GET /api/v1/overview`: the process that serves the panel. Every field is optional because the hub's answer
 * may grow or lag behind the panel; {@link flinkWebUrl}, when present, links jobs to Flink's own dashboard.
 */
export interface Overview {
  readonly role?: 'jobmanager' | 'taskmanager' | 'client' | string;
  readonly flinkVersion?: string;
  readonly insightVersion?: string;
  /** Older name of {@link insightVersion}. */
  readonly version?: string;
  readonly uptimeMs?: number;
  /** ISO-8601 instant. */
  readonly startedAt?: string;
  readonly metricCount?: number;
  readonly seriesCount?: number;
  readonly rejectedMetrics?: number;
  readonly scrapeErrors?: number;
  readonly samplerErrors?: number;
  readonly port?: number;
  /** How far apart, and how far back, the hub keeps history. */
  readonly historyResolutionMs?: number;
  readonly historyRetentionMs?: number;
  readonly flinkWebUrl?: string | null;
}
