/**
 * One thing the Flink of the cluster gives the plugin or not (the hub probes it at start-up): Flink 1.20 to 2.1
 * report less by span and event than 2.2+, and the hub fills in from Flink's REST API what it can.
 */
export interface Capability {
  /** E.g. `checkpoint-phase-figures`, `checkpoint-task-spans`, `job-events`. */
  readonly name: string;
  readonly available: boolean;
  /** The first Flink version that gives it, e.g. `2.2`. */
  readonly since: string;
  /** The Flink option that turns it on, if any. */
  readonly option?: string | null;
  /** What it gives when available. */
  readonly gives: string;
  /** What the plugin does without it. */
  readonly whenMissing: string;
}

/**
 * `GET /api/v1/overview`: the process that serves the panel. Every field is optional because the hub's answer
 * may grow or lag behind the panel; {@link flinkDashboardPath} or
 * {@link flinkWebUrl}, when present, link the panel back to Flink's own dashboard.
 */
export interface Overview {
  readonly role?: 'jobmanager' | 'taskmanager' | 'client' | string;
  readonly flinkVersion?: string;
  readonly javaVersion?: number;
  /** What this Flink gives and does not; absent from plugins older than the probe. */
  readonly capabilities?: readonly Capability[];
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
  /**
   * Where the hub serves Flink's dashboard on its own port (with the "Insight" tab added), e.g. `/flink/`;
   * preferred over {@link flinkWebUrl} because it keeps the user on the port where the tab exists.
   */
  readonly flinkDashboardPath?: string | null;
}
