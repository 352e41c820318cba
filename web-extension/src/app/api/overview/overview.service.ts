import { HttpClient } from '@angular/common/http';
import { inject, Injectable } from '@angular/core';
import { Observable } from 'rxjs';

import { Capability, Overview } from './overview.model';

/** Reads `/api/v1/overview`, and knows how to link a job to Flink's dashboard when the hub says where it is. */
@Injectable({ providedIn: 'root' })
export class OverviewService {
  private readonly http = inject(HttpClient);

  overview(): Observable<Overview> {
    return this.http.get<Overview>('api/v1/overview');
  }
}

/**
 * Flink's dashboard as the panel links to it: the hub's same-origin copy (`flinkDashboardPath`, made relative so it
 * also works behind a path prefix) when there is one, else Flink's own URL if it is http(s); otherwise undefined. A
 * `javascript:` or protocol-relative value from a misconfigured hub never becomes a link.
 */
export function flinkDashboardUrl(overview: Overview | null | undefined): string | undefined {
  const path = overview?.flinkDashboardPath;
  if (path && /^\/[a-z0-9][a-z0-9/_-]*$/i.test(path)) {
    return path.replace(/^\/+/, '');
  }
  const url = overview?.flinkWebUrl;
  return url && /^https?:\/\//i.test(url) ? url : undefined;
}

/** The job's page in Flink's dashboard (see {@link flinkDashboardUrl}), or undefined for an odd job id. */
export function flinkJobUrl(overview: Overview | null | undefined, jobId: string): string | undefined {
  const dashboard = flinkDashboardUrl(overview);
  if (!dashboard || !/^[0-9a-f]{32}$/i.test(jobId)) {
    return undefined;
  }
  return `${dashboard.replace(/\/+$/, '')}/#/job/running/${jobId}/overview`;
}

/** The capability {@link name} when the cluster's Flink lacks it; undefined when it has it or the hub did not say. */
export function missingCapability(overview: Overview | null | undefined, name: string): Capability | undefined {
  const capability = overview?.capabilities?.find((c) => c.name === name);
  return capability && !capability.available ? capability : undefined;
}
