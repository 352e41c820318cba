import { clientFigures, clientFiguresWithHistory } from '../../../testing/payloads';
import { queryBreakdown, queryBreakdownSeries } from './query-breakdown';

describe('queryBreakdown', () => {
  it('lists submit, cluster run and result fetch with their medians, in that order', () => {
    expect(queryBreakdown(clientFigures(true))).toEqual([
      { label: 'submit', ms: 40 },
      { label: 'cluster run', ms: 190 },
      { label: 'result fetch', ms: 25 },
    ]);
  });

  it('keeps the three phases, each unknown, when there are no figures', () => {
    for (const figures of [undefined, null]) {
      expect(queryBreakdown(figures)).toEqual([
        { label: 'submit', ms: null },
        { label: 'cluster run', ms: null },
        { label: 'result fetch', ms: null },
      ]);
    }
  });

  it('leaves a phase the client has not measured unknown instead of zero', () => {
    const figures = clientFigures(true);
    const parts = queryBreakdown({
      ...figures,
      queries: {
        ...figures.queries,
        submitMs: { p50: 40, p99: 90 },
        clusterRunMs: { p50: null, p99: null },
        resultFetchMs: { p50: 0, p99: 3 },
      },
    });
    expect(parts.map((p) => p.ms)).toEqual([40, null, 0]);
  });

  it('charts the same phases over time, stacked, from the history that came with the figures', () => {
    const figures = clientFiguresWithHistory();
    const series = queryBreakdownSeries(figures);
    expect(series.map((s) => [s.id, s.name, s.stack])).toEqual([
      ['submit', 'submit p50', 'q'],
      ['cluster', 'cluster run p50', 'q'],
      ['fetch', 'result fetch p50', 'q'],
    ]);
    expect(series[1].points).toEqual(figures.history?.queries.clusterRunMs.p50);
    expect(queryBreakdownSeries(undefined).every((s) => s.points.length === 0)).toBe(true);
  });
});
