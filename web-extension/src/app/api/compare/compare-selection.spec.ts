import { parseSelection, selectionParams } from './compare-selection';

const A = 'a'.repeat(32);
const B = 'b'.repeat(32);

function fromQuery(query: Record<string, string>) {
  return parseSelection((name) => query[name] ?? null);
}

describe('compare selection', () => {
  it('reads two to four jobs, lower-cased', () => {
    expect(fromQuery({ jobs: `${A},${B.toUpperCase()}` })).toEqual({ mode: 'jobs', jobs: [A, B] });
  });

  it('reads one job in time ranges', () => {
    expect(fromQuery({ job: A, ranges: '1-2,3-4' })).toEqual({ mode: 'ranges', job: A, ranges: [[1, 2], [3, 4]] });
  });

  it('refuses what the API refuses', () => {
    expect(fromQuery({ jobs: A })).toBeUndefined();
    expect(fromQuery({ jobs: `${A},${A}` })).toBeUndefined();
    expect(fromQuery({ jobs: `${A},xyz` })).toBeUndefined();
    expect(fromQuery({ jobs: `${A},${B}`, job: A })).toBeUndefined();
    expect(fromQuery({ job: A, ranges: '2-1,3-4' })).toBeUndefined();
    expect(fromQuery({ job: A, ranges: '1-2' })).toBeUndefined();
    expect(fromQuery({ job: A })).toBeUndefined();
    expect(fromQuery({})).toBeUndefined();
  });

  it('round-trips through the query parameters it writes', () => {
    for (const s of [
      { mode: 'jobs', jobs: [A, B] },
      { mode: 'ranges', job: A, ranges: [[10, 20], [30, 40]] },
    ] as const) {
      const params = selectionParams(s);
      expect(fromQuery(Object.fromEntries(Object.entries(params).filter(([, v]) => v != null)) as Record<string, string>)).toEqual(s);
    }
  });
});
