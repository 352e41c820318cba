import { ChangeDetectionStrategy, Component, computed, inject } from '@angular/core';

import { ClientService } from '../../api/client/client.service';
import { HubOverview } from '../../api/overview/hub-overview';
import { axisBounds } from '../../core/data-start';
import { liveQuery } from '../../core/live-query';
import { ViewState } from '../../core/view-state';
import { ChartSeries, firstPointTime } from '../../shared/chart/chart-options';
import { ChartCard } from '../../shared/chart/chart-card';
import { UNIT_PIPES } from '../../shared/format/unit-pipes';
import { ApiErrorState } from '../../shared/ui/api-error-state';
import { AsyncView } from '../../shared/ui/async-view';
import { BreakdownBar } from '../../shared/ui/breakdown-bar';
import { queryBreakdown, queryBreakdownSeries } from '../../shared/ui/query-breakdown';
import { StatCard } from '../../shared/ui/stat-card';

/** How to install the client, when the hub's answer gives no hint of its own. */
const INSTALL_HINT =
  'install the interactive-client jar in the SQL Gateway\u2019s lib/ and set execution.target: remote-interactive';

/**
 * The client path (interactive client in the SQL Gateway): pool, channel and collect-retry figures now and over
 * time, and each query's latency with where it goes. Says how to install the client when it has not reported.
 */
@Component({
  selector: 'fi-client-page',
  imports: [ChartCard, StatCard, AsyncView, ApiErrorState, BreakdownBar, ...UNIT_PIPES],
  changeDetection: ChangeDetectionStrategy.OnPush,
  templateUrl: './client-page.html',
})
export class ClientPage {
  private readonly view = inject(ViewState);
  private readonly clientApi = inject(ClientService);
  private readonly hubStart = inject(HubOverview).dataStart;

  /** The figures and their history over the selected range: one request per refresh. */
  protected readonly figures = liveQuery(() => this.clientApi.withHistory(this.view.window()));

  private readonly history = computed(() => this.figures.value()?.history);

  protected readonly bounds = computed(() => {
    this.figures.value();
    return this.view.window().bounds(Date.now());
  });

  /** The charts' time axis: the range, or from where the hub's data starts when the range reaches before it. */
  protected readonly axis = computed(() =>
    axisBounds(
      this.bounds(),
      this.hubStart(),
      firstPointTime([
        ...this.ratioSeries(),
        ...this.retrySeries(),
        ...this.latencySeries(),
        ...this.breakdownSeries(),
        ...this.poolSeries(),
      ]),
    ),
  );

  protected readonly breakdown = computed(() => queryBreakdown(this.figures.value()));

  /** What to do for the figures to show while the client has not reported: the hub's hint, else how to install it. */
  protected readonly installHint = computed(() => `To see them, ${this.figures.value()?.hint || INSTALL_HINT}.`);

  protected readonly ratioSeries = computed<ChartSeries[]>(() => {
    const h = this.history();
    return [
      { id: 'hit', name: 'client-pool hit rate', points: h?.pool.hitRate ?? [] },
      { id: 'reuse', name: 'channel reuse', points: h?.channels.reuseRatio ?? [] },
    ];
  });

  protected readonly retrySeries = computed<ChartSeries[]>(() => [
    { id: 'retries', name: 'collect retries per query', kind: 'bar', points: this.history()?.collect.retriesPerQuery ?? [] },
  ]);

  protected readonly latencySeries = computed<ChartSeries[]>(() => {
    const e2e = this.history()?.queries.e2eLatencyMs;
    return [
      { id: 'e2e-p50', name: 'end-to-end p50', points: e2e?.p50 ?? [] },
      { id: 'e2e-p99', name: 'end-to-end p99', points: e2e?.p99 ?? [] },
    ];
  });

  protected readonly breakdownSeries = computed(() => queryBreakdownSeries(this.figures.value()));

  protected readonly poolSeries = computed<ChartSeries[]>(() => {
    const h = this.history();
    return [
      { id: 'pool', name: 'pooled clients', points: h?.pool.size ?? [] },
      { id: 'inflight', name: 'channels in flight', points: h?.channels.inFlight ?? [] },
    ];
  });
}
