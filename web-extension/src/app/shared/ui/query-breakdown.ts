import { ClientFigures } from '../../api/client/client.model';
import { BreakdownPart } from './breakdown-bar';

/**
 * Where a query's end-to-end time goes, as the breakdown bar draws it: the median of each phase the client measures
 * (submit, cluster run, result fetch), in that order. A phase without a figure (or no figures at all) is unknown.
 */
export function queryBreakdown(figures: ClientFigures | null | undefined): readonly BreakdownPart[] {
  const q = figures?.queries;
  return [
    { label: 'submit', ms: q?.submitMs.p50 ?? null },
    { label: 'cluster run', ms: q?.clusterRunMs.p50 ?? null },
    { label: 'result fetch', ms: q?.resultFetchMs.p50 ?? null },
  ];
}
