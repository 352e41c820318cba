import { ChangeDetectionStrategy, Component, input } from '@angular/core';

/** One headline figure with its label and a line of context, like ng-zorro's statistic. */
@Component({
  selector: 'fi-stat',
  changeDetection: ChangeDetectionStrategy.OnPush,
  host: { class: 'fi-stat' },
  template: `
    <div class="fi-stat-label">{{ label() }}</div>
    <div class="fi-stat-value">{{ value() }}</div>
    @if (detail()) {
      <div class="fi-stat-detail">{{ detail() }}</div>
    }
  `,
})
export class StatCard {
  readonly label = input.required<string>();
  readonly value = input.required<string>();
  readonly detail = input<string | null | undefined>(undefined);
}
