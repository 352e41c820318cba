import { HttpClient } from '@angular/common/http';
import { inject, Injectable } from '@angular/core';
import { Observable } from 'rxjs';

import { Overview } from './overview.model';

/** Reads `/api/v1/overview`, and knows how to link a job to Flink's dashboard when the hub says where it is. */
@Injectable({ providedIn: 'root' })
export class OverviewService {
  private readonly http = inject(HttpClient);

  overview(): Observable<Overview> {
    return this.http.get<Overview>('api/v1/overview');
  }
}

/**
 * The job's page in Flink's dashboard, or undefined when the dashboard's URL is unknown or not http(s) (a
 * `javascript:` URL from a misconfigured hub must never become a link).
 */
export function flinkJobUrl(flinkWebUrl: string | null | undefined, jobId: string): string | undefined {
  if (!flinkWebUrl || !/^https?:\/\//i.test(flinkWebUrl) || !/^[0-9a-f]{32}$/i.test(jobId)) {
    return undefined;
  }
  return `${flinkWebUrl.replace(/\/+$/, '')}/#/job/running/${jobId}/overview`;
}
