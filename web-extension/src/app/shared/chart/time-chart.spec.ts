import { Component, signal } from '@angular/core';
import { TestBed } from '@angular/core/testing';
import { provideEchartsCore } from 'ngx-echarts';

import { settle } from '../../../testing/testing-providers';
import { TestingEcharts } from '../../../testing/testing-echarts';
import { ChartSeries } from './chart-options';
import { TimeChart } from './time-chart';

@Component({
  imports: [TimeChart],
  template: `<fi-time-chart [series]="series()" unit="ms" />`,
})
class Host {
  readonly series = signal<ChartSeries[]>([]);
}

describe('TimeChart', () => {
  let echarts: TestingEcharts;

  beforeEach(() => {
    echarts = new TestingEcharts();
    TestBed.configureTestingModule({ providers: [provideEchartsCore({ echarts: echarts as never })] });
  });

  it('shows the empty state when no series has a point', async () => {
    const fixture = TestBed.createComponent(Host);
    fixture.componentInstance.series.set([{ id: 'a', name: 'a', points: [[1, null]] }]);
    await settle();
    expect(fixture.nativeElement.textContent).toContain('No data in this time range yet.');
    expect(echarts.charts.length).toBe(0);
  });

  it('sets the options once, then streams data through merge', async () => {
    const fixture = TestBed.createComponent(Host);
    fixture.componentInstance.series.set([{ id: 'a', name: 'a', points: [[1, 5]] }]);
    await settle();
    expect(echarts.charts.length).toBe(1);
    const chart = echarts.charts[0];
    const fullSets = () => chart.calls.filter((c) => c.notMerge).length;
    expect(fullSets()).toBe(1);

    fixture.componentInstance.series.set([{ id: 'a', name: 'a', points: [[1, 5], [2, 6]] }]);
    await settle();
    expect(fullSets()).toBe(1);
    const last = chart.calls[chart.calls.length - 1];
    expect(last.notMerge).toBe(false);
    expect((last.option['series'] as { data: unknown[] }[])[0].data.length).toBe(2);
  });

  it('rebuilds the options when a series is added', async () => {
    const fixture = TestBed.createComponent(Host);
    fixture.componentInstance.series.set([{ id: 'a', name: 'a', points: [[1, 5]] }]);
    await settle();
    fixture.componentInstance.series.set([
      { id: 'a', name: 'a', points: [[1, 5]] },
      { id: 'b', name: 'b', points: [[1, 7]] },
    ]);
    await settle();
    const full = echarts.charts[0].calls.filter((c) => c.notMerge);
    expect(full.length).toBe(2);
    expect((full[1].option['series'] as unknown[]).length).toBe(2);
  });

  it('exposes its point count for the end-to-end checks', async () => {
    const fixture = TestBed.createComponent(Host);
    fixture.componentInstance.series.set([{ id: 'a', name: 'a', points: [[1, 5], [2, null], [3, 1]] }]);
    await settle();
    expect(fixture.nativeElement.querySelector('fi-time-chart').getAttribute('data-points')).toBe('2');
  });
});
