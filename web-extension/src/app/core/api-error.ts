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
    const body = (err.error && typeof err.error === 'object' ? err.error : {}) as { error?: unknown; narrowBy?: unknown };
    const narrowBy = namesOf(body.narrowBy);
    // An answer over the hub's byte budget: the body names the query parameters that would make it smaller.
    const detail =
      err.status === 413 && narrowBy.length
        ? `The answer is larger than the hub's limit; narrow it by: ${narrowBy.join(', ')}`
        : typeof body.error === 'string'
          ? body.error
          : err.statusText || 'request failed';
    // A proxy in front of a stopped hub answers 502/503/504: that is "unreachable" for the user too.
    const unreachable = err.status === 502 || err.status === 503 || err.status === 504;
    return { message: `${detail} (HTTP ${err.status})`, unreachable, status: err.status };
  }
  return { message: err instanceof Error ? err.message : String(err), unreachable: false, status: -1 };
}

function namesOf(list: unknown): readonly string[] {
  return Array.isArray(list) ? list.filter((n): n is string => typeof n === 'string') : [];
}
