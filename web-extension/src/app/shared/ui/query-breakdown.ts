import { ClientFigures } from '../../api/client/client.model';
import { ChartSeries } from '../chart/chart-options';
import { BreakdownPart } from './breakdown-bar';

/** The phases of a query's end-to-end time the client measures, in the order they happen. */
const QUERY_PHASES = [
  { id: 'submit', label: 'submit', figure: 'submitMs' },
  { id: 'cluster', label: 'cluster run', figure: 'clusterRunMs' },
  { id: 'fetch', label: 'result fetch', figure: 'resultFetchMs' },
] as const;

/**
 * Where a query's end-to-end time goes, as the breakdown bar draws it: the median of each phase. A phase without
 * a figure (or no figures at all) is unknown.
 */
export function queryBreakdown(figures: ClientFigures | null | undefined): readonly BreakdownPart[] {
  return QUERY_PHASES.map((p) => ({ label: p.label, ms: figures?.queries[p.figure].p50 ?? null }));
}

/** The same phases' medians over time, stacked, as the client page charts them from the figures' history. */
export function queryBreakdownSeries(figures: ClientFigures | null | undefined): ChartSeries[] {
  return QUERY_PHASES.map((p) => ({
    id: p.id,
    name: `${p.label} p50`,
    stack: 'q',
    area: true,
    points: figures?.history?.queries[p.figure].p50 ?? [],
  }));
}
