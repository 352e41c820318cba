/**
 * `GET /api/v1/checkpoints?job=&limit=`: jobs (most recently active first) with their checkpoints, newest first.
 * The shapes are generated from the plugin's records (checkpoints.generated.ts); a phase figure is null when not
 * reported, `checkpointedSize` is what the async phase uploaded, vertex names are user input.
 */
export type {
  CheckpointRecord,
  CheckpointsResponse,
  JobCheckpoints,
  PhaseFigures,
  SubtaskCheckpoint,
  TaskCheckpoint,
} from './checkpoints.generated';
