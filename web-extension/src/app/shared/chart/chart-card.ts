import { NgTemplateOutlet } from '@angular/common';
import { ChangeDetectionStrategy, Component, contentChild, input, TemplateRef } from '@angular/core';

import { Unit } from '../format/units';
import { AsyncState, AsyncView } from '../ui/async-view';
import { ChartSeries } from './chart-options';
import { NO_DATA_IN_RANGE, TimeChart } from './time-chart';

let nextId = 0;

/**
 * A card with one chart: its title and subtitle, then, when a {@link query} is given, its loading and unavailable
 * states (else the page has waited for the data already), then the chart with its empty state. The chart is a
 * {@link TimeChart} of {@link series}, or the `<ng-template>` given as content (created only when it shows). Other
 * content, such as a capability note, shows between the title and the chart:
 *
 * ```html
 * <fi-chart-card heading="Throughput" subtitle="records out per second" [query]="throughput"
 *                [series]="throughputSeries()" unit="perSecond" [window]="bounds()" />
 * ```
 *
 * The element is the card itself (`fi-card`), a region named by its title.
 */
@Component({
  selector: 'fi-chart-card',
  imports: [AsyncView, NgTemplateOutlet, TimeChart],
  changeDetection: ChangeDetectionStrategy.OnPush,
  host: { class: 'fi-card', role: 'region', '[attr.aria-labelledby]': 'headingId' },
  template: `
    <header>
      <h2 [id]="headingId">{{ heading() }}</h2>
      @if (subtitle()) {
        <span class="fi-muted">{{ subtitle() }}</span>
      }
    </header>
    <ng-content />
    @if (query(); as q) {
      <fi-async-view [query]="q">
        <ng-template><ng-container [ngTemplateOutlet]="chartBlock" /></ng-template>
      </fi-async-view>
    } @else {
      <ng-container [ngTemplateOutlet]="chartBlock" />
    }
    <ng-template #chartBlock>
      @if (chart(); as custom) {
        <ng-container [ngTemplateOutlet]="custom" />
      } @else {
        <fi-time-chart [series]="series()" [unit]="unit()" [unit2]="unit2()" [window]="window()"
                       [emptyMessage]="emptyMessage()" />
      }
    </ng-template>
  `,
})
export class ChartCard {
  /** The card's title (`heading`, not `title`: a `title` attribute would be every pixel's tooltip). */
  readonly heading = input.required<string>();
  readonly subtitle = input('');
  /** The request the chart draws; absent when the page shows the chart only once it has the answer. */
  readonly query = input<AsyncState | undefined>(undefined);

  readonly series = input<readonly ChartSeries[]>([]);
  readonly unit = input<Unit>('count');
  readonly unit2 = input<Unit | undefined>(undefined);
  readonly window = input<{ from: number; to: number } | undefined>(undefined);
  readonly emptyMessage = input(NO_DATA_IN_RANGE);

  /** A chart of another kind than a time chart. */
  protected readonly chart = contentChild(TemplateRef);

  protected readonly headingId = `fi-chart-card-${nextId++}`;
}
