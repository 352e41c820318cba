import { ChangeDetectionStrategy, Component, computed, inject, signal } from '@angular/core';

import { HubOverview } from '../api/overview/hub-overview';
import { dataStartInRange } from '../core/data-start';
import { RefreshClock } from '../core/refresh-clock';
import { RANGE_PRESETS, RangePreset, REFRESH_INTERVAL_MS } from '../core/time-range';
import { ViewState } from '../core/view-state';
import { formatClock, formatDateTime, fromDateTimeLocal, toDateTimeLocal } from '../shared/format/time';
import { formatDuration } from '../shared/format/units';

/** A moment as short as it can be said: its time of day when it is today, else its date and time. */
function shortTime(epochMs: number, now: number): string {
  return new Date(epochMs).toDateString() === new Date(now).toDateString() ? formatClock(epochMs) : formatDateTime(epochMs);
}

/**
 * The header's controls: time range (presets or a custom window) and auto-refresh; all state lives in the URL. When
 * the range reaches before the hub started, it says since when there is data (the charts start there).
 */
@Component({
  selector: 'fi-time-toolbar',
  changeDetection: ChangeDetectionStrategy.OnPush,
  host: { class: 'fi-toolbar' },
  template: `
    <div class="fi-radio-group" role="radiogroup" aria-label="Time range">
      @for (r of presets; track r) {
        <button type="button" role="radio" class="fi-radio" [class.checked]="view.params().range === r"
                [attr.aria-checked]="view.params().range === r" (click)="setRange(r)">{{ r }}</button>
      }
      <button type="button" role="radio" class="fi-radio" [class.checked]="view.params().range === 'custom'"
              [attr.aria-checked]="view.params().range === 'custom'" (click)="openCustom()">custom</button>
    </div>
    @if (editing()) {
      <form class="fi-custom-range" (submit)="applyCustom($event, from.value, to.value)">
        <label>from <input #from type="datetime-local" name="from" [value]="draftFrom()" required></label>
        <label>to <input #to type="datetime-local" name="to" [value]="draftTo()" required></label>
        <button type="submit" class="fi-btn fi-btn-primary">Apply</button>
        <button type="button" class="fi-btn" (click)="editing.set(false)">Cancel</button>
        @if (customError()) {
          <span class="fi-error-text">{{ customError() }}</span>
        }
      </form>
    } @else if (view.params().range === 'custom') {
      <span class="fi-range-text">{{ customText() }}</span>
    }
    @if (dataNote(); as note) {
      <span class="fi-range-text fi-data-note" [title]="note.title">{{ note.text }}</span>
    }
    <span class="fi-toolbar-spacer"></span>
    <button type="button" class="fi-btn" [class.fi-btn-active]="view.refreshing()"
            [attr.aria-pressed]="view.refreshing()" (click)="view.setRefresh(!view.refreshing())"
            [title]="view.refreshing() ? 'Pause auto-refresh' : 'Resume auto-refresh'">
      {{ view.refreshing() ? '❚❚ Auto-refresh ' + intervalText : '▶ Auto-refresh off' }}
    </button>
    <button type="button" class="fi-btn" (click)="clock.refreshNow()" title="Refresh now">↻</button>
  `,
})
export class TimeToolbar {
  protected readonly view = inject(ViewState);
  protected readonly clock = inject(RefreshClock);
  private readonly hub = inject(HubOverview);
  protected readonly presets = RANGE_PRESETS;
  protected readonly intervalText = `${REFRESH_INTERVAL_MS / 1000} s`;

  protected readonly editing = signal(false);
  protected readonly draftFrom = signal('');
  protected readonly draftTo = signal('');
  protected readonly customError = signal('');

  protected readonly customText = computed(() => {
    const p = this.view.params();
    return `${formatDateTime(p.from)} → ${formatDateTime(p.to)}`;
  });

  /**
   * What the range holds of the hub's data, when not all of it: "data since 13:02:41 · the hub started 4 min ago",
   * or, when it read back what a JobManager before it wrote, "data since 11:58:02 (read back) · the hub started …".
   */
  protected readonly dataNote = computed(() => {
    const started = this.hub.startedAt();
    const dataStart = this.hub.dataStart();
    this.hub.query.updatedAt(); // each answer moves "now", also when the start it gives is the same
    if (started == null || dataStart == null) {
      return undefined;
    }
    const now = Date.now();
    const range = this.view.window().bounds(now);
    const readBack = dataStart < started ? ' (read back)' : '';
    if (dataStartInRange(range, dataStart) != null) {
      return {
        text: `data since ${shortTime(dataStart, now)}${readBack} · the hub started ${formatDuration(Math.round((now - started) / 1000) * 1000)} ago`,
        title: readBack
          ? 'The hub read back the history a JobManager before it wrote; the charts start where that data starts.'
          : 'The range reaches before the hub started: the charts start where its data starts.',
      };
    }
    return dataStart >= range.to
      ? {
          text: `no data in this range: the hub's data starts ${formatDateTime(dataStart)}`,
          title: 'The hub keeps no data from before it started, or before what it read back.',
        }
      : undefined;
  });

  protected setRange(range: RangePreset): void {
    this.editing.set(false);
    void this.view.setRange(range);
  }

  protected openCustom(): void {
    const p = this.view.params();
    const bounds = p.range === 'custom' && p.from != null && p.to != null
      ? { from: p.from, to: p.to }
      : this.view.window().bounds(Date.now());
    this.draftFrom.set(toDateTimeLocal(bounds.from));
    this.draftTo.set(toDateTimeLocal(bounds.to));
    this.customError.set('');
    this.editing.set(true);
  }

  protected applyCustom(event: Event, fromText: string, toText: string): void {
    event.preventDefault();
    const from = fromDateTimeLocal(fromText);
    const to = fromDateTimeLocal(toText);
    if (!Number.isFinite(from) || !Number.isFinite(to) || from >= to) {
      this.customError.set('"from" must be before "to"');
      return;
    }
    this.editing.set(false);
    void this.view.setCustomRange(from, to);
  }
}
