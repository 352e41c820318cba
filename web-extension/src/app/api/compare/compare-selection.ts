/**
 * What the compare view compares, in the same query syntax as `/api/v1/compare` (so the panel's URL and the API's
 * agree): `jobs=<id>,<id>[,…]` (2–4 jobs), or `job=<id>&ranges=<from>-<to>,<from>-<to>[,…]` (one job in 2–4 time
 * ranges, epoch ms).
 */
export type CompareSelection =
  | { readonly mode: 'jobs'; readonly jobs: readonly string[] }
  | { readonly mode: 'ranges'; readonly job: string; readonly ranges: readonly (readonly [number, number])[] };

export const MIN_COLUMNS = 2;
export const MAX_COLUMNS = 4;

const JOB_ID = /^[0-9a-f]{32}$/i;
const RANGE = /^(\d{1,15})-(\d{1,15})$/;

/** The selection in the query parameters, or undefined when they hold none (or a malformed one). */
export function parseSelection(get: (name: string) => string | null | undefined): CompareSelection | undefined {
  const jobs = get('jobs');
  const job = get('job');
  if (jobs && !job) {
    const ids = jobs.split(',').map((s) => s.trim().toLowerCase());
    const distinct = new Set(ids);
    return ids.every((id) => JOB_ID.test(id)) && distinct.size === ids.length && ids.length >= MIN_COLUMNS &&
      ids.length <= MAX_COLUMNS
      ? { mode: 'jobs', jobs: ids }
      : undefined;
  }
  const ranges = get('ranges');
  if (job && !jobs && ranges && JOB_ID.test(job.trim())) {
    const parsed: [number, number][] = [];
    for (const part of ranges.split(',')) {
      const m = RANGE.exec(part.trim());
      if (!m || !(Number(m[1]) < Number(m[2]))) {
        return undefined;
      }
      parsed.push([Number(m[1]), Number(m[2])]);
    }
    return parsed.length >= MIN_COLUMNS && parsed.length <= MAX_COLUMNS
      ? { mode: 'ranges', job: job.trim().toLowerCase(), ranges: parsed }
      : undefined;
  }
  return undefined;
}

/** The query parameters of a selection (null clears the other form's parameters in a merge). */
export function selectionParams(selection: CompareSelection): Record<string, string | null> {
  return selection.mode === 'jobs'
    ? { jobs: selection.jobs.join(','), job: null, ranges: null }
    : { jobs: null, job: selection.job, ranges: selection.ranges.map(([f, t]) => `${f}-${t}`).join(',') };
}
