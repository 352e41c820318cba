import { computed, DestroyRef, inject, Signal, signal } from '@angular/core';
import { takeUntilDestroyed, toObservable } from '@angular/core/rxjs-interop';
import { catchError, EMPTY, exhaustMap, merge, Observable, Subject, switchMap, tap } from 'rxjs';

import { ApiError, toApiError } from './api-error';
import { RefreshClock } from './refresh-clock';

/** A request that re-runs on every refresh tick and whenever the signals it reads change. */
export interface LiveQuery<T> {
  /** The newest answer; kept when a later refresh fails, so the page shows stale data beside the error. */
  readonly value: Signal<T | undefined>;
  readonly error: Signal<ApiError | undefined>;
  /** True until the first answer (or error) for the current parameters. */
  readonly loading: Signal<boolean>;
  readonly updatedAt: Signal<number | undefined>;
  reload(): void;
}

/**
 * Creates a {@link LiveQuery} in an injection context. {@link request} reads signals (job id, time range) and
 * returns the observable to run, or undefined when there is nothing to ask yet. A change of those signals drops
 * the old answer; a tick re-runs the request and keeps it. Ticks during a request in flight are skipped, so a slow
 * hub is never asked twice at once.
 */
export function liveQuery<T>(request: () => Observable<T> | undefined): LiveQuery<T> {
  const clock = inject(RefreshClock);
  const value = signal<T | undefined>(undefined);
  const error = signal<ApiError | undefined>(undefined);
  const loading = signal(true);
  const updatedAt = signal<number | undefined>(undefined);
  const manual = new Subject<void>();
  const ticks$ = toObservable(clock.tick);

  toObservable(computed(request))
    .pipe(
      switchMap((req) => {
        value.set(undefined);
        error.set(undefined);
        if (!req) {
          loading.set(false);
          return EMPTY;
        }
        loading.set(true);
        return merge(ticks$, manual).pipe(
          exhaustMap(() =>
            req.pipe(
              tap({
                next: (v) => {
                  value.set(v);
                  error.set(undefined);
                  updatedAt.set(Date.now());
                  loading.set(false);
                },
                error: (e: unknown) => {
                  error.set(toApiError(e));
                  loading.set(false);
                },
              }),
              // The error is shown through the signal; the stream keeps ticking for the next attempt.
              catchError(() => EMPTY),
            ),
          ),
        );
      }),
      takeUntilDestroyed(inject(DestroyRef)),
    )
    .subscribe();

  return {
    value: value.asReadonly(),
    error: error.asReadonly(),
    loading: loading.asReadonly(),
    updatedAt: updatedAt.asReadonly(),
    reload: () => manual.next(),
  };
}
