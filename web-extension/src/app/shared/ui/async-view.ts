import { NgTemplateOutlet } from '@angular/common';
import { ChangeDetectionStrategy, Component, computed, contentChild, input, Signal, TemplateRef } from '@angular/core';

import { ApiError } from '../../core/api-error';
import { StatePanel } from './state-panel';

/** What a section says when its request got no HTTP answer (the page shows the error itself once, above). */
export const UNAVAILABLE = 'Not available: the hub did not answer.';

/** What {@link AsyncView} reads of a request; a `LiveQuery` is one. */
export interface AsyncState {
  readonly loading: Signal<boolean>;
  readonly value: Signal<unknown>;
  readonly error: Signal<ApiError | undefined>;
}

/**
 * A section's loading, unavailable, empty and content states in one place: a spinner until the first answer, a
 * "not available" note naming what failed when the request failed without an earlier answer (the page shows the
 * error once, above), an empty state when the answer holds nothing to show, else the content. The content comes as
 * an `<ng-template>`, so it is created only when it shows (a chart is not set up for a request still in flight); an
 * element marked `fiEmptyNote` shows below the empty state:
 *
 * ```html
 * <fi-async-view [query]="checkpoints" [empty]="rows().length === 0" emptyMessage="No checkpoints yet.">
 *   <ng-template><fi-checkpoint-table [checkpoints]="rows()" /></ng-template>
 * </fi-async-view>
 * ```
 *
 * Chart cards get it through `fi-chart-card`.
 *
 * The element draws no box of its own (`display: contents`), so the card lays out as if the states were its own.
 */
@Component({
  selector: 'fi-async-view',
  imports: [NgTemplateOutlet, StatePanel],
  changeDetection: ChangeDetectionStrategy.OnPush,
  host: { class: 'fi-async-view' },
  template: `
    @if (query().loading()) {
      <fi-state kind="loading" [message]="loadingMessage()" />
    } @else if (unavailable(); as note) {
      <fi-state kind="empty" [message]="note" />
    } @else if (empty()) {
      <fi-state kind="empty" [title]="emptyTitle()" [message]="emptyMessage()" />
      <ng-content select="[fiEmptyNote]" />
    } @else {
      <ng-container [ngTemplateOutlet]="content()" />
    }
  `,
})
export class AsyncView {
  readonly query = input.required<AsyncState>();
  /** Beside the spinner; empty says "Loading…". */
  readonly loadingMessage = input('');
  /** False when the content copes without an answer (e.g. shows nothing), so it shows instead of the note. */
  readonly noteUnavailable = input(true);
  /** True when the answer holds nothing to show: then {@link emptyTitle} and {@link emptyMessage} show instead. */
  readonly empty = input(false);
  readonly emptyTitle = input<string | undefined>(undefined);
  readonly emptyMessage = input<string | null | undefined>('');

  protected readonly content = contentChild.required(TemplateRef);

  /** The note for a request that failed before any answer came: the hub's own words unless it did not answer. */
  protected readonly unavailable = computed(() => {
    const error = this.query().error();
    if (!error || this.query().value() !== undefined || !this.noteUnavailable()) {
      return undefined;
    }
    return error.unreachable ? UNAVAILABLE : `Not available: ${error.message}`;
  });
}
