import { ChangeDetectionStrategy, Component, computed, inject } from '@angular/core';

import { ClientService } from '../../api/client/client.service';
import { liveQuery } from '../../core/live-query';
import { ViewState } from '../../core/view-state';
import { ChartSeries } from '../../shared/chart/chart-options';
import { TimeChart } from '../../shared/chart/time-chart';
import { UNIT_PIPES } from '../../shared/format/unit-pipes';
import { ApiErrorState } from '../../shared/ui/api-error-state';
import { AsyncView } from '../../shared/ui/async-view';
import { BreakdownBar } from '../../shared/ui/breakdown-bar';
import { queryBreakdown } from '../../shared/ui/query-breakdown';
import { StatCard } from '../../shared/ui/stat-card';
import { StatePanel } from '../../shared/ui/state-panel';

/**
 * The client path (interactive client in the SQL Gateway): pool, channel and collect-retry figures now and over
 * time, and each query's latency with where it goes. Says how to install the client when it has not reported.
 */
@Component({
  selector: 'fi-client-page',
  imports: [TimeChart, StatCard, StatePanel, AsyncView, ApiErrorState, BreakdownBar, ...UNIT_PIPES],
  changeDetection: ChangeDetectionStrategy.OnPush,
  templateUrl: './client-page.html',
})
export class ClientPage {
  private readonly view = inject(ViewState);
  private readonly clientApi = inject(ClientService);

  protected readonly figures = liveQuery(() => this.clientApi.figures());
  protected readonly history = liveQuery(() =>
    this.figures.value()?.available ? this.clientApi.history(this.view.window()) : undefined,
  );

  protected readonly error = computed(() => this.figures.error() ?? this.history.error());
  protected readonly available = computed(() => this.figures.value()?.available === true);

  protected readonly bounds = computed(() => {
    this.history.value();
    return this.view.window().bounds(Date.now());
  });

  protected readonly breakdown = computed(() => queryBreakdown(this.figures.value()));

  protected readonly ratioSeries = computed<ChartSeries[]>(() => {
    const h = this.history.value();
    return [
      { id: 'hit', name: 'client-pool hit rate', points: h?.hitRate ?? [] },
      { id: 'reuse', name: 'channel reuse', points: h?.reuseRatio ?? [] },
    ];
  });

  protected readonly retrySeries = computed<ChartSeries[]>(() => [
    { id: 'retries', name: 'collect retries per query', kind: 'bar', points: this.history.value()?.retriesPerQuery ?? [] },
  ]);

  protected readonly latencySeries = computed<ChartSeries[]>(() => {
    const h = this.history.value();
    return [
      { id: 'e2e-p50', name: 'end-to-end p50', points: h?.e2eP50 ?? [] },
      { id: 'e2e-p99', name: 'end-to-end p99', points: h?.e2eP99 ?? [] },
    ];
  });

  protected readonly breakdownSeries = computed<ChartSeries[]>(() => {
    const h = this.history.value();
    return [
      { id: 'submit', name: 'submit p50', stack: 'q', area: true, points: h?.submitP50 ?? [] },
      { id: 'cluster', name: 'cluster run p50', stack: 'q', area: true, points: h?.clusterRunP50 ?? [] },
      { id: 'fetch', name: 'result fetch p50', stack: 'q', area: true, points: h?.resultFetchP50 ?? [] },
    ];
  });

  protected readonly poolSeries = computed<ChartSeries[]>(() => {
    const h = this.history.value();
    return [
      { id: 'pool', name: 'pooled clients', points: h?.poolSize ?? [] },
      { id: 'inflight', name: 'channels in flight', points: h?.channelsInFlight ?? [] },
    ];
  });
}
