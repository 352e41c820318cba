import { HttpClient, HttpParams } from '@angular/common/http';
import { inject, Injectable } from '@angular/core';
import { Observable } from 'rxjs';

import { CompareSelection, selectionParams } from './compare-selection';
import { CompareResponse } from './compare.model';

/** Reads a side-by-side comparison from `/api/v1/compare`. */
@Injectable({ providedIn: 'root' })
export class CompareService {
  private readonly http = inject(HttpClient);

  compare(selection: CompareSelection): Observable<CompareResponse> {
    let params = new HttpParams();
    for (const [name, value] of Object.entries(selectionParams(selection))) {
      if (value != null) {
        params = params.set(name, value);
      }
    }
    return this.http.get<CompareResponse>('api/v1/compare', { params });
  }
}
