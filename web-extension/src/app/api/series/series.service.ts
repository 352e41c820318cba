import { HttpClient, HttpParams } from '@angular/common/http';
import { inject, Injectable } from '@angular/core';
import { Observable } from 'rxjs';

import { TimeWindow } from '../../core/time-range';
import { SeriesNamesResponse, SeriesResponse } from './series.model';

/** Label names the series API reserves for itself: they can never be used as label filters. */
const RESERVED = new Set(['metric', 'from', 'to', 'step', 'limit']);

/** Reads metric history: `/api/v1/series` and `/api/v1/series/names`. */
@Injectable({ providedIn: 'root' })
export class SeriesService {
  private readonly http = inject(HttpClient);

  series(
    metric: string,
    window: TimeWindow,
    labels: Readonly<Record<string, string>> = {},
    limit?: number,
  ): Observable<SeriesResponse> {
    let params = new HttpParams().set('metric', metric).set('from', window.fromParam).set('step', window.stepParam);
    if (window.toParam) {
      params = params.set('to', window.toParam);
    }
    if (limit != null) {
      params = params.set('limit', String(limit));
    }
    for (const [name, value] of Object.entries(labels)) {
      if (!RESERVED.has(name)) {
        params = params.set(name, value);
      }
    }
    return this.http.get<SeriesResponse>('api/v1/series', { params });
  }

  names(prefix = '', limit = 10_000): Observable<SeriesNamesResponse> {
    const params = new HttpParams().set('prefix', prefix).set('limit', String(limit));
    return this.http.get<SeriesNamesResponse>('api/v1/series/names', { params });
  }
}
