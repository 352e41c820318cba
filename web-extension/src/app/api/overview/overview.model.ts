import { Capability } from './overview.generated';

/** What the Flink of the cluster gives the plugin or not, e.g. `checkpoint-phase-figures` since `2.2`. */
export type { Capability };

/**
 * `GET /api/v1/overview`: the process that serves the panel. Written by hand: the endpoint builds a map key by key
 * (its own figures are keys too), not a record. Every field is optional because the hub's answer may grow or lag
 * behind the panel; {@link flinkDashboardPath} or
 * {@link flinkWebUrl}, when present, link the panel back to Flink's own dashboard.
 */
export interface Overview {
  /** Null until the process's role is known. */
  readonly role?: 'jobmanager' | 'taskmanager' | 'client' | string | null;
  readonly flinkVersion?: string;
  readonly javaVersion?: number;
  /** What this Flink gives and does not; absent from plugins older than the probe. */
  readonly capabilities?: readonly Capability[];
  readonly insightVersion?: string;
  readonly uptimeMs?: number;
  /** ISO-8601 instant. */
  readonly startedAt?: string;
  readonly metricCount?: number;
  readonly seriesCount?: number;
  readonly rejectedMetrics?: number;
  readonly scrapeErrors?: number;
  readonly samplerErrors?: number;
  /** False on a TaskManager, unless it is configured to keep history too. */
  readonly keepsHistory?: boolean;
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
  /** On a JobManager (null elsewhere): whether it leads its cluster; absent from plugins older than HA support. */
  readonly hub?: HubLeadership | null;
  /** Where the hub writes its stores and what it read back; null when they are kept in memory only. */
  readonly storesDir?: StoresDir | null;
}

/** The hub's stores on disk (`stores.dir`): the history, checkpoints, jobs and statements that outlive it. */
export interface StoresDir {
  readonly dir: string;
  /** Whether the last write succeeded and the hub writes on (false on a standby or while writes fail). */
  readonly writing: boolean;
  /** ISO-8601 instants, null before the first write / when nothing was read back. */
  readonly lastWriteAt: string | null;
  readonly lastFailure: string | null;
  readonly bytesOnDisk: number;
  readonly restoredSamples?: number;
  readonly restoredJobs?: number;
  readonly restoredCheckpoints?: number;
  readonly restoredStatements?: number;
  /** The oldest sample read back: the data starts there, not when this hub started. */
  readonly restoredFrom?: string | null;
  readonly restoredUntil?: string | null;
}

/**
 * A JobManager's place in its cluster: only the leading JobManager's hub polls Flink, a standby's (under high
 * availability) has no data of its own and names the leader instead.
 */
export interface HubLeadership {
  readonly leading: boolean;
  /** The leading JobManager's REST URL (Flink's dashboard); null while unknown. */
  readonly leader: string | null;
}

/** The leader's REST URL when the process serving the panel is a standby JobManager, '' when the leader is unknown. */
export function standbyLeader(overview: Overview | undefined): string | undefined {
  const hub = overview?.hub;
  if (!hub || hub.leading) {
    return undefined;
  }
  return hub.leader && /^https?:\/\//i.test(hub.leader) ? hub.leader : '';
}
