import { HttpClient, HttpParams } from '@angular/common/http';
import { inject, Injectable } from '@angular/core';
import { map, Observable } from 'rxjs';

import { JobRecord, JobsResponse } from './jobs.model';

export const JOB_LOOKUP_LIMIT = 1_000;

/** Reads the jobs the hub has seen from `/api/v1/jobs`. */
@Injectable({ providedIn: 'root' })
export class JobsService {
  private readonly http = inject(HttpClient);

  list(statuses: readonly string[] = [], limit = 500): Observable<JobsResponse> {
    let params = new HttpParams().set('limit', String(limit));
    if (statuses.length) {
      params = params.set('status', statuses.join(','));
    }
    return this.http.get<JobsResponse>('api/v1/jobs', { params });
  }

  /**
   * One job, found among the newest {@link JOB_LOOKUP_LIMIT} (the API has no per-job lookup yet), or null when the
   * hub has not seen it. The bound keeps a 5-second refresh cheap on a cluster that has run many short queries.
   */
  job(jobId: string): Observable<JobRecord | null> {
    const id = jobId.toLowerCase();
    return this.list([], JOB_LOOKUP_LIMIT).pipe(map((r) => r.jobs.find((j) => j.jobId.toLowerCase() === id) ?? null));
  }
}
