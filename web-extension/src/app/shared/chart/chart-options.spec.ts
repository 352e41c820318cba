import { HOSTILE_NAME } from '../../../testing/payloads';
import {
  buildTimeChartMerge,
  buildTimeChartOptions,
  ChartSeries,
  firstPointTime,
  layoutKey,
  legendName,
  niceBytesInterval,
  tooltipHtml,
} from './chart-options';

const MiB = 1024 * 1024;
const series: ChartSeries[] = [
  { id: 'a', name: HOSTILE_NAME, points: [[1000, 3 * MiB], [2000, 4 * MiB]] },
  { id: 'b', name: 'full size', axis: 1, points: [[1000, 100 * MiB]] },
];

describe('chart options', () => {
  it('escapes series names in the tooltip', () => {
    const html = tooltipHtml(
      [{ seriesIndex: 0, seriesName: HOSTILE_NAME, value: [1000, 3 * MiB], color: '#1890ff' }],
      series,
      ['bytes'],
    );
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).not.toContain('<img');
    const holder = document.createElement('div');
    holder.innerHTML = html;
    expect(holder.querySelector('img')).toBeNull();
    expect(holder.textContent).toContain(HOSTILE_NAME);
  });

  it('escapes a colour that is not a colour', () => {
    const html = tooltipHtml([{ seriesIndex: 0, seriesName: 'x', value: [1, 1], color: '"><img src=x>' }], series, ['bytes']);
    expect(html).not.toContain('<img');
  });

  it("formats tooltip values in the unit of the series' axis", () => {
    const html = tooltipHtml(
      [
        { seriesIndex: 0, seriesName: 'a', value: [1000, 3 * MiB] },
        { seriesIndex: 1, seriesName: 'b', value: [1000, 1500] },
      ],
      series,
      ['bytes', 'ms'],
    );
    expect(html).toContain('3 MiB');
    expect(html).toContain('1.5 s');
  });

  it('puts the unit on every axis label', () => {
    const options = buildTimeChartOptions(series, { units: ['bytes', 'ms'] }) as {
      yAxis: { axisLabel: { formatter: (v: number) => string } }[];
    };
    expect(options.yAxis.map((a) => a.axisLabel.formatter(2048))).toEqual(['2 KiB', '2.05 s']);
  });

  it('streams only data through merge, keeping the series ids', () => {
    const merge = buildTimeChartMerge(series, { units: ['bytes'], window: { from: 1, to: 2 } }) as {
      series: { id: string; data: unknown }[];
      xAxis: { min: number; max: number };
    };
    expect(merge.series.map((s) => s.id)).toEqual(['a', 'b']);
    expect(merge.series[0].data).toBe(series[0].points);
    expect(merge.xAxis).toEqual({ min: 1, max: 2 });
  });

  it('changes the layout key only when the series or units change', () => {
    const moreData = series.map((s) => ({ ...s, points: [...s.points, [3000, 1] as [number, number]] }));
    expect(layoutKey(moreData, { units: ['bytes'] })).toBe(layoutKey(series, { units: ['bytes'] }));
    expect(layoutKey(series.slice(0, 1), { units: ['bytes'] })).not.toBe(layoutKey(series, { units: ['bytes'] }));
    expect(layoutKey(series, { units: ['ms'] })).not.toBe(layoutKey(series, { units: ['bytes'] }));
  });

  it('chooses round binary ticks for bytes', () => {
    expect(niceBytesInterval(24 * MiB)).toBe(5 * MiB);
    expect(niceBytesInterval(1000)).toBe(200);
    expect(niceBytesInterval(0)).toBeUndefined();
  });

  it('shortens long legend names', () => {
    expect(legendName('x'.repeat(100)).length).toBe(48);
    expect(legendName('short')).toBe('short');
  });

  it('finds the earliest point of any series, a gap too', () => {
    expect(firstPointTime(series)).toBe(1000);
    expect(firstPointTime([{ id: 'c', name: 'c', points: [[3000, 1], [500, null]] }, ...series])).toBe(500);
    expect(firstPointTime([{ id: 'c', name: 'c', points: [] }])).toBeUndefined();
  });
});
