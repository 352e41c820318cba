import { queryView } from '../../../testing/payloads';
import { buildTimelineMerge, buildTimelineOptions, timelineOf, timelineTooltip } from './timeline-options';

interface BarSeries {
  id: string;
  name?: string;
  stack?: string;
  stackStrategy?: string;
  data: ({ value: number; start: number; end: number } | number | null)[];
}

function seriesOf(option: Record<string, unknown>): BarSeries[] {
  return option['series'] as BarSeries[];
}

/**
 * Where each row's bar of a phase starts and ends on the axis, stacked as ECharts' `stackStrategy: 'all'` does: each
 * value on the previous series' stacked value, whatever it is, so a missing value (NaN) in one series takes the bars
 * of every later series of that row with it. Null where ECharts would draw nothing.
 */
function drawn(series: readonly BarSeries[], phaseId: string): ([number, number] | null)[] {
  const phase = series.find((s) => s.id === phaseId)!;
  const stack = series.filter((s) => s.stack === phase.stack);
  return phase.data.map((_, row) => {
    let stacked = Number.NaN;
    for (const [i, s] of stack.entries()) {
      const item = s.data[row];
      const value = item == null ? Number.NaN : typeof item === 'number' ? item : item.value;
      const over = i === 0 ? 0 : stacked;
      stacked = over + value;
      if (s.id === phaseId) {
        return Number.isNaN(stacked) ? null : [over, stacked];
      }
    }
    return null;
  });
}

describe('query timeline', () => {
  it('places every phase in ms since its query started, client and cluster on one axis', () => {
    const t = timelineOf([queryView(1_000_000), queryView(5_000_000, false)]);
    expect(t.rows).toEqual(['#1 SUCCEEDED 300 ms', '#2 SUCCEEDED 300 ms']);
    const submit = t.phases.find((p) => p.id === 'client:submit');
    expect(submit?.bars).toEqual([
      { row: 0, start: 2, end: 50 },
      { row: 1, start: 2, end: 50 },
    ]);
    // The JobManager's clock runs 5 ms behind: its first phase starts before the query, and the axis with it.
    expect(t.phases.find((p) => p.id === 'cluster:scheduling')?.bars).toEqual([{ row: 0, start: -5, end: 40 }]);
    expect(t.min).toBe(-5);
    expect(t.max).toBe(300);
  });

  it('lists every known phase in the legend, in the order they happen, and keeps phases it does not know', () => {
    const odd = queryView(0, false);
    const t = timelineOf([{ ...odd, phases: [...odd.phases, { side: 'cluster', name: 'finishing', start: 250, end: 280 }] }]);
    expect(t.phases.map((p) => p.label)).toEqual([
      'client · admission wait', 'client · submit', 'client · job start wait', 'client · cluster run',
      'client · result fetch', 'cluster · scheduling', 'cluster · deploying', 'cluster · running',
      'cluster · finishing',
    ]);
    const options = buildTimelineOptions(t);
    expect((options['legend'] as { data: string[] }).data).toEqual(t.phases.map((p) => p.label));
    expect(drawn(seriesOf(options), 'cluster:finishing')).toEqual([[250, 280]]);
  });

  it('draws each bar where its phase was, stacking an invisible gap before it', () => {
    const series = seriesOf(buildTimelineOptions(timelineOf([queryView(1_000_000), queryView(7_000, false)])));
    expect(drawn(series, 'client:admissionWait')).toEqual([[0, 2], [0, 2]]);
    expect(drawn(series, 'client:clusterRun')).toEqual([[60, 260], [60, 260]]);
    expect(drawn(series, 'client:resultFetch')).toEqual([[260, 300], [260, 300]]);
    expect(drawn(series, 'cluster:scheduling')).toEqual([[-5, 40], [0, 0]]);
    expect(drawn(series, 'cluster:running')).toEqual([[100, 250], [0, 0]]);
    // one stack per side, summed whatever the sign, so a negative start stays in place
    expect(new Set(series.map((s) => s.stack))).toEqual(new Set(['client', 'cluster']));
    expect(series.every((s) => s.stackStrategy === 'all')).toBe(true);
  });

  it('draws the phases after one a query did not reach', () => {
    // Not admitted after a wait, and the job never ran: the client folds the wait into the upload and calls the rest
    // of the query the wait for its job's start; the JobManager reported only its scheduling, and the other query's
    // job was not seen at all.
    const folded = queryView(0, true, {
      phases: [
        { side: 'client', name: 'submit', start: 0, end: 4_000 },
        { side: 'client', name: 'jobStartWait', start: 4_000, end: 25_900 },
        { side: 'cluster', name: 'scheduling', start: 3_000, end: 4_500 },
      ],
    });
    const series = seriesOf(buildTimelineOptions(timelineOf([folded, queryView(0, false)])));
    expect(drawn(series, 'client:submit')).toEqual([[0, 4_000], [2, 50]]);
    expect(drawn(series, 'client:jobStartWait')).toEqual([[4_000, 25_900], [50, 60]]);
    expect(drawn(series, 'client:resultFetch')).toEqual([[25_900, 25_900], [260, 300]]);
    expect(drawn(series, 'cluster:scheduling')).toEqual([[3_000, 4_500], [0, 0]]);
    // every value is a number: one missing value would take the rest of its row's stack with it
    expect(series.every((s) => s.data.every((d) => d != null))).toBe(true);
  });

  it('has a unit on the time axis and a legend of phases only', () => {
    const options = buildTimelineOptions(timelineOf([queryView()]));
    const x = options['xAxis'] as { type: string; min: number; axisLabel: { formatter: (v: number) => string } };
    expect(x.type).toBe('value');
    expect(x.min).toBe(-5);
    expect(x.axisLabel.formatter(250)).toBe('250 ms');
    expect(x.axisLabel.formatter(1_500)).toBe('1.5 s');
    const legend = (options['legend'] as { data: string[] }).data;
    expect(legend.some((name) => name.startsWith('gap'))).toBe(false);
  });

  it('streams new bars into the same series on a refresh', () => {
    const t = timelineOf([queryView()]);
    const options = seriesOf(buildTimelineOptions(t));
    const merge = seriesOf(buildTimelineMerge(t));
    expect(merge.map((s) => s.id)).toEqual(options.map((s) => s.id));
    expect(merge.map((s) => s.data)).toEqual(options.map((s) => s.data));
  });

  it('says in the tooltip how long a phase took and when, escaped', () => {
    const html = timelineTooltip({
      name: '#1 SUCCEEDED 300 ms',
      seriesName: '<img src=x onerror=alert(1)>',
      data: { value: 200, start: 60, end: 260 },
      color: '#52c41a',
    });
    expect(html).toContain('<b class="fi-tt-value">200 ms</b>');
    expect(html).toContain('60 ms → 260 ms after the query started');
    expect(html).toContain('&lt;img src=x');
    expect(html).not.toContain('<img');
  });
});
