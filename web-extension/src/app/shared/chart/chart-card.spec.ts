import { Component, signal } from '@angular/core';
import { TestBed } from '@angular/core/testing';
import { provideEchartsCore } from 'ngx-echarts';

import { settle } from '../../../testing/testing-providers';
import { TestingEcharts } from '../../../testing/testing-echarts';
import { ApiError } from '../../core/api-error';
import { UNAVAILABLE } from '../ui/async-view';
import { ChartCard } from './chart-card';
import { ChartSeries } from './chart-options';

const UNREACHABLE: ApiError = { message: 'The Flink Insight hub is unreachable.', unreachable: true, status: 0 };

@Component({
  imports: [ChartCard],
  template: `
    <fi-chart-card heading="Throughput" subtitle="records out per second" [query]="query" [series]="series()"
                   unit="perSecond" emptyMessage="No throughput figures.">
      <p class="note">needs Flink 2.2</p>
    </fi-chart-card>
    <fi-chart-card heading="Without a request" [series]="series()" />
  `,
})
class Host {
  readonly query = { loading: signal(true), value: signal<unknown>(undefined), error: signal<ApiError | undefined>(undefined) };
  readonly series = signal<ChartSeries[]>([{ id: 'a', name: 'a', points: [[1, 5], [2, 6]] }]);
}

@Component({
  selector: 'fi-probe',
  template: `another chart`,
})
class Probe {}

@Component({
  imports: [ChartCard, Probe],
  template: `
    <fi-chart-card heading="Aligned" [query]="query">
      <ng-template><fi-probe /></ng-template>
    </fi-chart-card>
  `,
})
class WithOwnChart {
  readonly query = { loading: signal(false), value: signal<unknown>({}), error: signal<ApiError | undefined>(undefined) };
}

describe('ChartCard', () => {
  beforeEach(() => {
    TestBed.configureTestingModule({ providers: [provideEchartsCore({ echarts: new TestingEcharts() as never })] });
  });

  async function render() {
    const fixture = TestBed.createComponent(Host);
    await settle();
    const [card, plain] = (fixture.nativeElement as HTMLElement).querySelectorAll<HTMLElement>('fi-chart-card');
    return { fixture, card, plain };
  }

  it('is a card region named by its title, with its subtitle and notes above the chart', async () => {
    const { card } = await render();
    const heading = card.querySelector('header h2') as HTMLElement;
    expect(card.classList).toContain('fi-card');
    expect(card.getAttribute('role')).toBe('region');
    expect(card.getAttribute('aria-labelledby')).toBe(heading.id);
    expect(heading.textContent).toBe('Throughput');
    expect(card.querySelector('header .fi-muted')?.textContent).toBe('records out per second');
    expect(card.querySelector('.note')?.textContent).toBe('needs Flink 2.2');
  });

  it('gives each card its own heading id and no subtitle when none is given', async () => {
    const { card, plain } = await render();
    expect(plain.querySelector('h2')?.id).not.toBe(card.querySelector('h2')?.id);
    expect(plain.querySelector('header .fi-muted')).toBeNull();
  });

  it('spins while its request is loading, without a chart', async () => {
    const { card } = await render();
    expect(card.querySelector('.fi-state-loading')).not.toBeNull();
    expect(card.querySelector('fi-time-chart')).toBeNull();
  });

  it('says the data is not available when the request failed before any answer', async () => {
    const { fixture, card } = await render();
    fixture.componentInstance.query.loading.set(false);
    fixture.componentInstance.query.error.set(UNREACHABLE);
    await settle();
    expect(card.textContent).toContain(UNAVAILABLE);
    expect(card.querySelector('fi-time-chart')).toBeNull();
  });

  it('draws the time chart once answered, and its empty state when the range holds no point', async () => {
    const { fixture, card } = await render();
    fixture.componentInstance.query.loading.set(false);
    fixture.componentInstance.query.value.set({});
    await settle();
    expect(card.querySelector('fi-time-chart')?.getAttribute('data-points')).toBe('2');

    fixture.componentInstance.series.set([{ id: 'a', name: 'a', points: [[1, null]] }]);
    await settle();
    expect(card.querySelector('fi-time-chart')?.textContent).toContain('No throughput figures.');
  });

  it('draws at once without a request', async () => {
    const { plain } = await render();
    expect(plain.querySelector('fi-time-chart')?.getAttribute('data-points')).toBe('2');
  });

  it('draws the chart given as a template instead of a time chart', async () => {
    const fixture = TestBed.createComponent(WithOwnChart);
    await settle();
    const card = (fixture.nativeElement as HTMLElement).querySelector('fi-chart-card') as HTMLElement;
    expect(card.querySelector('fi-probe')?.textContent).toBe('another chart');
    expect(card.querySelector('fi-time-chart')).toBeNull();
  });
});
