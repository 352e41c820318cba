import { ClientFigures } from '../../api/client/client.model';
import { BreakdownPart } from './breakdown-bar';

/**
 * Where a query's end-to-end time goes, as the breakdown bar draws it: the median of each phase the client measures
 * (submit, cluster run, result fetch), in that order. A phase without a figure (or no figures at all) is unknown.
 */
export function queryBreakdown(figures: ClientFigures | null | undefined): readonly BreakdownPart[] {
  const b = figures?.queries.breakdownMs;
  return [
    { label: 'submit', ms: b?.submit ?? null },
    { label: 'cluster run', ms: b?.clusterRun ?? null },
    { label: 'result fetch', ms: b?.resultFetch ?? null },
  ];
}
