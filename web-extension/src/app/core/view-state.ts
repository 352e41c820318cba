import { computed, inject, Injectable } from '@angular/core';
import { toSignal } from '@angular/core/rxjs-interop';
import { ActivatedRoute, convertToParamMap, Router } from '@angular/router';

import {
  parseViewParams,
  RangePreset,
  REFRESH_INTERVAL_MS,
  sameView,
  timeWindow,
  ViewParams,
  viewQueryParams,
} from './time-range';

/**
 * The view shared by every page — time range and auto-refresh — read from and written to the URL's query
 * parameters, so a link reproduces what its sender saw.
 */
@Injectable({ providedIn: 'root' })
export class ViewState {
  private readonly router = inject(Router);
  private readonly query = toSignal(inject(ActivatedRoute).queryParamMap, {
    initialValue: convertToParamMap({}),
  });

  readonly params = computed<ViewParams>(() => parseViewParams((name) => this.query().get(name)), {
    equal: sameView,
  });
  readonly window = computed(() => timeWindow(this.params()));
  readonly refreshing = computed(() => this.params().refresh);
  readonly refreshMs = computed(() => (this.params().refresh ? REFRESH_INTERVAL_MS : 0));

  setRange(range: RangePreset): Promise<boolean> {
    return this.apply({ ...this.params(), range, from: undefined, to: undefined });
  }

  setCustomRange(from: number, to: number): Promise<boolean> {
    if (!(from < to)) {
      return Promise.resolve(false);
    }
    return this.apply({ ...this.params(), range: 'custom', from, to });
  }

  setRefresh(refresh: boolean): Promise<boolean> {
    return this.apply({ ...this.params(), refresh });
  }

  private apply(view: ViewParams): Promise<boolean> {
    return this.router.navigate([], { queryParams: viewQueryParams(view), queryParamsHandling: 'merge' });
  }
}
