/**
 * `GET /api/v1/jobs?status=&limit=`: what the hub knows of each job, newest first. The shapes are generated from the
 * plugin's records (jobs.generated.ts); jobName and vertex names are user input.
 */
export type {
  JobFailure,
  JobInitialization,
  JobRecord,
  JobsResponse,
  JobTransition,
  LastCheckpoint,
} from './jobs.generated';
