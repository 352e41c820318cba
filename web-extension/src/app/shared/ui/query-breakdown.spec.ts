import { clientFigures } from '../../../testing/payloads';
import { queryBreakdown } from './query-breakdown';

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
});
