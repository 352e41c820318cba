import { HttpErrorResponse } from '@angular/common/http';

/** A failed request as the user should read it: what went wrong and, where it helps, what to check. */
export interface ApiError {
  readonly message: string;
  /** True when no HTTP answer came back at all (hub down, network gone). */
  readonly unreachable: boolean;
  readonly status: number;
}

export function toApiError(err: unknown): ApiError {
  if (err instanceof HttpErrorResponse) {
    if (err.status === 0) {
      return {
        message:
          'The Flink Insight hub is unreachable. Is the JobManager running with the insight plugin, and is its' +
          ' port reachable from this browser?',
        unreachable: true,
        status: 0,
      };
    }
    const body: unknown = err.error;
    const detail =
      body && typeof body === 'object' && typeof (body as { error?: unknown }).error === 'string'
        ? (body as { error: string }).error
        : err.statusText || 'request failed';
    // A proxy in front of a stopped hub answers 502/503/504: that is "unreachable" for the user too.
    const unreachable = err.status === 502 || err.status === 503 || err.status === 504;
    return { message: `${detail} (HTTP ${err.status})`, unreachable, status: err.status };
  }
  return { message: err instanceof Error ? err.message : String(err), unreachable: false, status: -1 };
}
