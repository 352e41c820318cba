import { computed, inject, Injectable } from '@angular/core';

import { liveQuery } from '../../core/live-query';
import { Overview } from './overview.model';
import { OverviewService } from './overview.service';

/**
 * When the hub started, in the browser's clock (the one the charts' axes use): the time its answer arrived less the
 * uptime it states, else the `startedAt` it states; undefined without either.
 */
export function hubStartMillis(overview: Overview | undefined, answeredAt: number | undefined): number | undefined {
  if (overview?.uptimeMs != null && Number.isFinite(overview.uptimeMs) && answeredAt != null) {
    return answeredAt - overview.uptimeMs;
  }
  const startedAt = overview?.startedAt != null ? Date.parse(overview.startedAt) : Number.NaN;
  return Number.isFinite(startedAt) ? startedAt : undefined;
}

/**
 * Where the hub's data starts: when it started, or earlier when it read back the history a JobManager before it wrote
 * (`storesDir.restoredFrom`); undefined while not known.
 */
export function dataStartMillis(overview: Overview | undefined, answeredAt: number | undefined): number | undefined {
  const started = hubStartMillis(overview, answeredAt);
  const restored = overview?.storesDir?.restoredFrom != null ? Date.parse(overview.storesDir.restoredFrom) : Number.NaN;
  if (!Number.isFinite(restored)) {
    return started;
  }
  return started === undefined ? restored : Math.min(started, restored);
}

/**
 * The hub's overview, asked once for the whole panel on every refresh: the shell shows the process, the toolbar and
 * the charts need when the hub started, the first moment it has data for.
 */
@Injectable({ providedIn: 'root' })
export class HubOverview {
  private readonly api = inject(OverviewService);

  readonly query = liveQuery(() => this.api.overview());

  /** When the hub started (epoch ms, the browser's clock); undefined until it has answered. */
  readonly startedAt = computed(() => hubStartMillis(this.query.value(), this.query.updatedAt()));

  /** Where the hub's data starts: its start, or the oldest sample it read back from disk. */
  readonly dataStart = computed(() => dataStartMillis(this.query.value(), this.query.updatedAt()));
}
