/**
 * Per-phase figures of a checkpoint (max or sum over subtasks, or one subtask's own); null = not reported.
 * `checkpointedSizeBytes` is what the async phase uploaded.
 */
export interface PhaseFigures {
  readonly stateSizeBytes: number | null;
  readonly checkpointedSizeBytes: number | null;
  readonly startDelayMs: number | null;
  readonly alignmentDurationMs: number | null;
  readonly syncDurationMs: number | null;
  readonly asyncDurationMs: number | null;
  readonly processedDataBytes: number | null;
  readonly persistedDataBytes: number | null;
}

/** One subtask's part of a checkpoint (span detail level CHILDREN_SPANS_PER_SUBTASK). */
export interface SubtaskCheckpoint {
  readonly subtaskIndex: number;
  readonly startTime: number;
  readonly endTime: number;
  readonly figures: PhaseFigures | null;
}

/** One task's (job vertex's) part of a checkpoint; vertexName is user input (operator names). */
export interface TaskCheckpoint {
  readonly vertexId: string;
  readonly vertexName: string | null;
  readonly startTime: number;
  readonly endTime: number;
  readonly max: PhaseFigures | null;
  readonly sum: PhaseFigures | null;
  readonly subtasks: readonly SubtaskCheckpoint[];
}

/** One checkpoint of one job as the JobManager reported it at completion or failure. */
export interface CheckpointRecord {
  readonly jobId: string;
  readonly jobName: string | null;
  readonly checkpointId: number;
  readonly status: 'COMPLETED' | 'FAILED' | string;
  readonly type: string | null;
  readonly unaligned: boolean | null;
  readonly triggerTime: number;
  readonly endTime: number;
  readonly durationMs: number | null;
  readonly fullSize: number | null;
  readonly checkpointedSize: number | null;
  readonly metadataSize: number | null;
  readonly max: PhaseFigures | null;
  readonly sum: PhaseFigures | null;
  readonly tasks: readonly TaskCheckpoint[];
  readonly source: 'span' | 'event' | string;
}

/** One job's checkpoints, newest first. */
export interface JobCheckpoints {
  readonly jobId: string;
  readonly jobName: string | null;
  readonly checkpoints: readonly CheckpointRecord[];
}

/** `GET /api/v1/checkpoints?job=&limit=`: jobs (most recently active first) with their checkpoints. */
export interface CheckpointsResponse {
  readonly jobs: readonly JobCheckpoints[];
}
