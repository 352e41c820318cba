/**
 * `GET /api/v1/statements?sort=&limit=&from=` and `GET /api/v1/queries?statement=<id>`: the interactive client's
 * queries grouped by normalized statement, and a statement's slowest and latest queries with their timelines. The
 * shapes are generated from the plugin's records (statements.generated.ts); a statement's text is user input.
 */
export type {
  LoggedQueries,
  QueryPhase,
  QueryView,
  StatementQueries,
  StatementRow,
  StatementsResponse,
} from './statements.generated';

/** The orders the hub sorts statements in: the most total time, the slowest p99, the most calls, the most failures. */
export const STATEMENT_SORTS = ['total', 'p99', 'calls', 'failures'] as const;
export type StatementSort = (typeof STATEMENT_SORTS)[number];
export const DEFAULT_STATEMENT_SORT: StatementSort = 'total';

/** A sort the hub accepts, from a URL parameter; anything else is the default. */
export function statementSort(value: string | null | undefined): StatementSort {
  return (STATEMENT_SORTS as readonly string[]).includes(value ?? '') ? (value as StatementSort) : DEFAULT_STATEMENT_SORT;
}

/** A statement's id: 16 hex digits of its text's SHA-256. */
const STATEMENT_ID = /^[0-9a-f]{16}$/;

export function isStatementId(value: string | null | undefined): value is string {
  return value != null && STATEMENT_ID.test(value);
}

/** Which side saw a phase: the gateway's interactive client, or the JobManager (on its own clock). */
export type PhaseSide = 'client' | 'cluster';

/** The phases of a query's timeline in the order they happen, by side, as `QueryPhase.name` spells them. */
export const QUERY_PHASES: readonly { readonly side: PhaseSide; readonly name: string; readonly label: string }[] = [
  { side: 'client', name: 'admissionWait', label: 'admission wait' },
  { side: 'client', name: 'submit', label: 'submit' },
  { side: 'client', name: 'jobStartWait', label: 'job start wait' },
  { side: 'client', name: 'clusterRun', label: 'cluster run' },
  { side: 'client', name: 'resultFetch', label: 'result fetch' },
  { side: 'cluster', name: 'scheduling', label: 'scheduling' },
  { side: 'cluster', name: 'deploying', label: 'deploying' },
  { side: 'cluster', name: 'running', label: 'running' },
];
