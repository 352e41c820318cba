import { HttpClient, HttpParams } from '@angular/common/http';
import { inject, Injectable } from '@angular/core';
import { Observable } from 'rxjs';

import { TimeWindow } from '../../core/time-range';
import { StatementQueries, StatementSort, StatementsResponse } from './statements.model';

/** How many statements the page asks for: the hub keeps at most 1,000, a page of the table shows 25. */
export const STATEMENTS_LIMIT = 200;

/** Reads `/api/v1/statements` and a statement's queries from `/api/v1/queries`. */
@Injectable({ providedIn: 'root' })
export class StatementsService {
  private readonly http = inject(HttpClient);

  /**
   * The statements that ran a query since the window's start, sorted by the hub. The API takes no end: a custom
   * range's statements are those that ran since its start.
   */
  statements(sort: StatementSort, window: TimeWindow, limit = STATEMENTS_LIMIT): Observable<StatementsResponse> {
    const params = new HttpParams().set('sort', sort).set('limit', String(limit)).set('from', window.fromParam);
    return this.http.get<StatementsResponse>('api/v1/statements', { params });
  }

  /** The statement's slowest and latest queries, each with its timeline. */
  queries(statementId: string): Observable<StatementQueries> {
    return this.http.get<StatementQueries>('api/v1/queries', { params: new HttpParams().set('statement', statementId) });
  }
}
