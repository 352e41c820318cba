import { HttpClient, HttpParams } from '@angular/common/http';
import { inject, Injectable } from '@angular/core';
import { Observable } from 'rxjs';

import { CheckpointRecord, CheckpointsResponse } from './checkpoints.model';

/** Largest page the hub serves per job. */
export const MAX_CHECKPOINTS = 1_000;

/** Reads checkpoint history from `/api/v1/checkpoints`. */
@Injectable({ providedIn: 'root' })
export class CheckpointsService {
  private readonly http = inject(HttpClient);

  /** Every job with checkpoints, each with its newest {@link limit} checkpoints. */
  all(limit = 200): Observable<CheckpointsResponse> {
    return this.http.get<CheckpointsResponse>('api/v1/checkpoints', {
      params: new HttpParams().set('limit', String(limit)),
    });
  }

  forJob(jobId: string, limit = MAX_CHECKPOINTS): Observable<CheckpointsResponse> {
    return this.http.get<CheckpointsResponse>('api/v1/checkpoints', {
      params: new HttpParams().set('job', jobId).set('limit', String(limit)),
    });
  }
}

/** The checkpoints that ended inside [from, to], oldest first (the order charts want). */
export function checkpointsInWindow(
  checkpoints: readonly CheckpointRecord[],
  from: number,
  to: number,
): CheckpointRecord[] {
  return checkpoints.filter((c) => c.endTime >= from && c.endTime <= to).sort((a, b) => a.endTime - b.endTime);
}
