/** A job status change as Flink's JobStatusChangeEvent reported it. */
export interface JobTransition {
  readonly status: string;
  readonly timestamp: number;
}

/** A job failure as Flink's JobFailureEvent reported it. */
export interface JobFailure {
  readonly timestamp: number;
  readonly canRestart: boolean | null;
  readonly globalFailure: boolean | null;
  readonly labels: Readonly<Record<string, string>>;
}

/** The job's state restore (JobInitialization span). */
export interface JobInitialization {
  readonly status: string;
  readonly startTime: number;
  readonly endTime: number;
  readonly checkpointId: number | null;
  readonly fullSize: number | null;
  readonly figures: Readonly<Record<string, number>>;
}

/** The newest checkpoint of a job, as joined into the jobs list. */
export interface LastCheckpoint {
  readonly id: number;
  readonly status: string;
  readonly type: string | null;
  readonly endTime: number;
  readonly durationMs: number | null;
  readonly checkpointedSize: number | null;
  readonly fullSize: number | null;
}

/** What the hub knows of one job; jobName and vertex names are user input. */
export interface JobRecord {
  readonly jobId: string;
  readonly jobName: string | null;
  readonly status: string | null;
  readonly terminal: boolean;
  readonly createdAt: number | null;
  readonly endedAt: number | null;
  /** Created to terminal status, or to now for a job still going. */
  readonly clusterLatencyMs: number | null;
  readonly allSubtasksRunningAt: number | null;
  readonly transitions: readonly JobTransition[];
  readonly failureCount: number;
  readonly failures: readonly JobFailure[];
  readonly initialization: JobInitialization | null;
  readonly lastCheckpoint: LastCheckpoint | null;
  readonly vertices: Readonly<Record<string, string>> | null;
  readonly updatedAt: number;
}

/** `GET /api/v1/jobs?status=&limit=`: jobs newest first. */
export interface JobsResponse {
  readonly total: number;
  readonly matched: number;
  readonly jobs: readonly JobRecord[];
}
