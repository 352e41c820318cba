import { HttpClient } from '@angular/common/http';
import { inject, Injectable } from '@angular/core';
import { forkJoin, map, Observable, of, shareReplay, switchMap } from 'rxjs';

import { TimeWindow } from '../../core/time-range';
import { ChartPoint, intervalQuotient, addByTime, maxByTime, sumByTime } from '../series/series-math';
import { Series } from '../series/series.model';
import { SeriesService } from '../series/series.service';
import { ClientFigures } from './client.model';

/** The marker the hub looks for in client metric names (`flink_<scope>_insight_client_<figure>`). */
export const CLIENT_PREFIX = 'insight_client_';
const NAMES_TTL_MS = 60_000;

/** The client path's figures over time, derived from the counters and quantiles in the hub's history. */
export interface ClientHistory {
  readonly available: boolean;
  /** Per interval: pool hits / (hits + misses). */
  readonly hitRate: ChartPoint[];
  /** Per interval: channels reused / (opened + reused). */
  readonly reuseRatio: ChartPoint[];
  /** Per interval: collect retries / queries submitted. */
  readonly retriesPerQuery: ChartPoint[];
  readonly e2eP50: ChartPoint[];
  readonly e2eP99: ChartPoint[];
  readonly submitP50: ChartPoint[];
  readonly clusterRunP50: ChartPoint[];
  readonly resultFetchP50: ChartPoint[];
  readonly poolSize: ChartPoint[];
  readonly channelsInFlight: ChartPoint[];
}

const EMPTY_HISTORY: ClientHistory = {
  available: false,
  hitRate: [],
  reuseRatio: [],
  retriesPerQuery: [],
  e2eP50: [],
  e2eP99: [],
  submitP50: [],
  clusterRunP50: [],
  resultFetchP50: [],
  poolSize: [],
  channelsInFlight: [],
};

const COUNTERS = [
  'pool_hits',
  'pool_misses',
  'channels_opened',
  'channels_reused',
  'collect_retries',
  'queries_submitted',
  'pool_size',
  'channels_inFlight',
] as const;
/** Histograms of the interactive client (group `queries`), stored by the hub with a quantile label. */
const QUANTILES = ['queries_e2eLatencyMs', 'queries_submitMs', 'queries_clusterRunMs', 'queries_resultFetchMs'] as const;

/** One spelling for a figure: `channels_inFlight`, `channels_in_flight` and `channelsinflight` are the same. */
export function sameFigure(a: string, b: string): boolean {
  const normal = (s: string) => s.replace(/_/g, '').toLowerCase();
  return normal(a) === normal(b);
}

/** The figure a client metric name carries, e.g. `pool_hits` of `flink_x_insight_client_pool_hits`. */
export function clientFigureOf(name: string): string {
  const i = name.lastIndexOf(CLIENT_PREFIX);
  return i < 0 ? '' : name.substring(i + CLIENT_PREFIX.length);
}

/** Reads the client path: current figures from `/api/v1/client`, history from the series API. */
@Injectable({ providedIn: 'root' })
export class ClientService {
  private readonly http = inject(HttpClient);
  private readonly seriesApi = inject(SeriesService);
  private names?: { at: number; names$: Observable<string[]> };

  figures(): Observable<ClientFigures> {
    return this.http.get<ClientFigures>('api/v1/client');
  }

  history(window: TimeWindow): Observable<ClientHistory> {
    return this.clientSeriesNames().pipe(
      switchMap((names) => {
        if (!names.length) {
          return of(EMPTY_HISTORY);
        }
        const fetches: Record<string, Observable<Series[]>> = {};
        for (const figure of COUNTERS) {
          fetches[figure] = this.fetchAll(names.filter((n) => sameFigure(clientFigureOf(n), figure)), window, {});
        }
        for (const figure of QUANTILES) {
          for (const [suffix, quantile] of [['p50', '0.5'], ['p99', '0.99']] as const) {
            // The hub stores histograms with a quantile label; a client may also export _p50/_p99 gauges.
            fetches[`${figure}:${suffix}`] = forkJoin([
              this.fetchAll(names.filter((n) => sameFigure(clientFigureOf(n), figure)), window, { quantile }),
              this.fetchAll(names.filter((n) => sameFigure(clientFigureOf(n), `${figure}_${suffix}`)), window, {}),
            ]).pipe(map(([a, b]) => [...a, ...b]));
          }
        }
        return forkJoin(fetches).pipe(map((s) => deriveHistory(s)));
      }),
    );
  }

  private fetchAll(names: string[], window: TimeWindow, labels: Record<string, string>): Observable<Series[]> {
    if (!names.length) {
      return of([]);
    }
    return forkJoin(names.map((n) => this.seriesApi.series(n, window, labels))).pipe(
      map((responses) => responses.flatMap((r) => r.series)),
    );
  }

  /** Names of client series; cached for a minute since the set changes only when a client process appears. */
  private clientSeriesNames(): Observable<string[]> {
    const now = Date.now();
    if (!this.names || now - this.names.at > NAMES_TTL_MS) {
      const names$ = this.seriesApi.names('').pipe(
        map((r) => r.names.filter((n) => n.includes(CLIENT_PREFIX))),
        shareReplay({ bufferSize: 1, refCount: false }),
      );
      this.names = { at: now, names$ };
      // A failed lookup must not be cached for a minute.
      names$.subscribe({ error: () => (this.names = undefined) });
    }
    return this.names.names$;
  }
}

/** Turns the raw client series into the ratios and latencies the page draws. */
export function deriveHistory(s: Record<string, Series[]>): ClientHistory {
  const sum = (figure: string) => sumByTime(s[figure] ?? []);
  const hits = sum('pool_hits');
  const reused = sum('channels_reused');
  const available = Object.values(s).some((list) => list.length > 0);
  return {
    available,
    hitRate: intervalQuotient(hits, addByTime(hits, sum('pool_misses'))),
    reuseRatio: intervalQuotient(reused, addByTime(reused, sum('channels_opened'))),
    retriesPerQuery: intervalQuotient(sum('collect_retries'), sum('queries_submitted')),
    e2eP50: maxByTime(s['queries_e2eLatencyMs:p50'] ?? []),
    e2eP99: maxByTime(s['queries_e2eLatencyMs:p99'] ?? []),
    submitP50: maxByTime(s['queries_submitMs:p50'] ?? []),
    clusterRunP50: maxByTime(s['queries_clusterRunMs:p50'] ?? []),
    resultFetchP50: maxByTime(s['queries_resultFetchMs:p50'] ?? []),
    poolSize: sum('pool_size'),
    channelsInFlight: sum('channels_inFlight'),
  };
}
