import { TestBed } from '@angular/core/testing';
import { HttpTestingController } from '@angular/common/http/testing';

import { timeWindow } from '../../core/time-range';
import { panelTestProviders } from '../../../testing/testing-providers';
import { Series } from '../series/series.model';
import { clientFigureOf, ClientHistory, ClientService, deriveHistory, sameFigure } from './client.service';

const counter = (name: string, values: number[]): Series => ({
  name: `flink_sqlgateway_insight_client_${name}`,
  labels: {},
  points: values.map((v, i) => [i * 1000, v]),
});

describe('ClientService', () => {
  beforeEach(() => TestBed.configureTestingModule({ providers: panelTestProviders() }));

  it('finds the figure in a scoped metric name', () => {
    expect(clientFigureOf('flink_sqlgateway_insight_client_pool_hits')).toBe('pool_hits');
    expect(clientFigureOf('flink_taskmanager_busy')).toBe('');
  });

  it('treats the spellings of one figure as the same', () => {
    expect(sameFigure('channels_inFlight', 'channels_in_flight')).toBe(true);
    expect(sameFigure('queries_e2eLatencyMs', 'queries_e2e_latency_ms')).toBe(true);
    expect(sameFigure('queries_e2eLatencyMs', 'queries_submitMs')).toBe(false);
  });

  it('derives hit rate, reuse and retries per interval, summed over processes', () => {
    const h = deriveHistory({
      pool_hits: [counter('pool_hits', [0, 4, 8]), counter('pool_hits', [0, 5, 10])],
      pool_misses: [counter('pool_misses', [0, 1, 2])],
      channels_reused: [counter('channels_reused', [0, 3])],
      channels_opened: [counter('channels_opened', [0, 1])],
      collect_retries: [counter('collect_retries', [0, 6])],
      queries_submitted: [counter('queries_submitted', [0, 3])],
    });
    expect(h.available).toBe(true);
    expect(h.hitRate).toEqual([[1000, 0.9], [2000, 0.9]]);
    expect(h.reuseRatio).toEqual([[1000, 0.75]]);
    expect(h.retriesPerQuery).toEqual([[1000, 2]]);
  });

  it('reads the history of the client series the hub has', () => {
    const http = TestBed.inject(HttpTestingController);
    let result: ClientHistory | undefined;
    TestBed.inject(ClientService).history(timeWindow({ range: '15m', refresh: true })).subscribe((h) => (result = h));

    http.expectOne((r) => r.url === 'api/v1/series/names').flush({
      prefix: '',
      truncated: false,
      names: ['flink_jobmanager_Status_JVM_CPU_Load', 'flink_sqlgateway_insight_client_pool_hits',
        'flink_sqlgateway_insight_client_pool_misses', 'flink_sqlgateway_insight_client_queries_e2eLatencyMs'],
    });
    const requests = http.match((r) => r.url === 'api/v1/series');
    expect(requests.map((r) => r.request.params.get('metric')).sort()).toEqual([
      'flink_sqlgateway_insight_client_pool_hits',
      'flink_sqlgateway_insight_client_pool_misses',
      'flink_sqlgateway_insight_client_queries_e2eLatencyMs',
      'flink_sqlgateway_insight_client_queries_e2eLatencyMs',
    ]);
    for (const r of requests) {
      expect(r.request.params.get('from')).toBe('-15m');
      expect(r.request.params.get('step')).toBe('3s');
      const metric = r.request.params.get('metric') ?? '';
      const quantile = r.request.params.get('quantile');
      const points = metric.endsWith('pool_hits') ? [[0, 0], [1000, 9]] : metric.endsWith('pool_misses')
        ? [[0, 0], [1000, 1]] : [[0, quantile === '0.99' ? 500 : 250]];
      r.flush({ metric, from: 0, to: 1, step: 1000, matched: 1, truncated: false,
        series: [{ name: metric, labels: quantile ? { quantile } : {}, points }] });
    }
    expect(result?.hitRate).toEqual([[1000, 0.9]]);
    expect(result?.e2eP50).toEqual([[0, 250]]);
    expect(result?.e2eP99).toEqual([[0, 500]]);
    http.verify();
  });

  it('is unavailable when no client series exist', () => {
    const http = TestBed.inject(HttpTestingController);
    let result: ClientHistory | undefined;
    TestBed.inject(ClientService).history(timeWindow({ range: '5m', refresh: true })).subscribe((h) => (result = h));
    http.expectOne((r) => r.url === 'api/v1/series/names').flush({ prefix: '', truncated: false, names: ['x'] });
    expect(result?.available).toBe(false);
    http.verify();
  });
});
