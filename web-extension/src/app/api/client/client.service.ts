import { HttpClient, HttpParams } from '@angular/common/http';
import { inject, Injectable } from '@angular/core';
import { Observable } from 'rxjs';

import { TimeWindow } from '../../core/time-range';
import { ClientFigures } from './client.model';

/** Reads the client path from `/api/v1/client`: the figures now, and with a window their history, in one request. */
@Injectable({ providedIn: 'root' })
export class ClientService {
  private readonly http = inject(HttpClient);

  /** The figures now. */
  figures(): Observable<ClientFigures> {
    return this.http.get<ClientFigures>('api/v1/client');
  }

  /** The figures now and their history over {@link window} (in `history`). */
  withHistory(window: TimeWindow): Observable<ClientFigures> {
    let params = new HttpParams().set('from', window.fromParam).set('step', window.stepParam);
    if (window.toParam) {
      params = params.set('to', window.toParam);
    }
    return this.http.get<ClientFigures>('api/v1/client', { params });
  }
}
