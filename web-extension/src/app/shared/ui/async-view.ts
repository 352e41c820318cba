import { NgTemplateOutlet } from '@angular/common';
import { ChangeDetectionStrategy, Component, contentChild, input, Signal, TemplateRef } from '@angular/core';

import { StatePanel, UNAVAILABLE } from './state-panel';

/** What {@link AsyncView} reads of a request; a `LiveQuery` is one. */
export interface AsyncState {
  readonly loading: Signal<boolean>;
  readonly value: Signal<unknown>;
}

/**
 * A section's loading, unavailable, empty and content states in one place: a spinner until the first answer, a
 * "not available" note when there is none (the page shows the hub's error once, above), an empty state when the
 * answer holds nothing to show, else the content. The content comes as an `<ng-template>`, so it is created only
 * when it shows (a chart is not set up for a request still in flight):
 *
 * ```html
 * <fi-async-view [query]="checkpoints">
 *   <ng-template><fi-time-chart [series]="sizeSeries()" /></ng-template>
 * </fi-async-view>
 * ```
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
    } @else if (!query().value() && unavailableMessage() !== null) {
      <fi-state kind="empty" [message]="unavailableMessage()" />
    } @else if (empty()) {
      <fi-state kind="empty" [title]="emptyTitle()" [message]="emptyMessage()" />
    } @else {
      <ng-container [ngTemplateOutlet]="content()" />
    }
  `,
})
export class AsyncView {
  readonly query = input.required<AsyncState>();
  /** Beside the spinner; empty says "Loading…". */
  readonly loadingMessage = input('');
  /**
   * What the section says without an answer. Null when the content copes without one (e.g. charts that show their
   * own empty state), so it shows instead.
   */
  readonly unavailableMessage = input<string | null>(UNAVAILABLE);
  /** True when the answer holds nothing to show: then {@link emptyTitle} and {@link emptyMessage} show instead. */
  readonly empty = input(false);
  readonly emptyTitle = input<string | undefined>(undefined);
  readonly emptyMessage = input<string | null | undefined>('');

  protected readonly content = contentChild.required(TemplateRef);
}
