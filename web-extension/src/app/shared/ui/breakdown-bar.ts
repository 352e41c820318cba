import { ChangeDetectionStrategy, Component, computed, input } from '@angular/core';

import { formatMs } from '../format/units';

/** One part of a duration, e.g. "submit" of a query's end-to-end time. */
export interface BreakdownPart {
  readonly label: string;
  readonly ms: number | null;
}

const COLORS = ['#1890ff', '#52c41a', '#fa8c16', '#722ed1', '#13c2c2'];

/**
 * Where a duration goes: its parts side by side, each as wide as its share, with the milliseconds in text (so it
 * reads without the colours, and without a canvas).
 */
@Component({
  selector: 'fi-breakdown-bar',
  changeDetection: ChangeDetectionStrategy.OnPush,
  host: { class: 'fi-breakdown' },
  template: `
    <div class="fi-breakdown-bar" role="img" [attr.aria-label]="summary()">
      @for (p of shares(); track p.label) {
        <span class="fi-breakdown-seg" [style.flex-grow]="p.share" [style.background]="p.color"></span>
      }
    </div>
    <ul class="fi-breakdown-legend">
      @for (p of shares(); track p.label) {
        <li><span class="fi-dot" [style.background]="p.color"></span>{{ p.label }} <b>{{ p.text }}</b></li>
      }
      @if (hasTotal()) {
        <li class="fi-breakdown-total">{{ totalLabel() }} <b>{{ totalText() }}</b></li>
      }
    </ul>
  `,
})
export class BreakdownBar {
  readonly parts = input.required<readonly BreakdownPart[]>();
  /** A reference total (e.g. measured end-to-end p50), shown beside the parts. */
  readonly total = input<number | null | undefined>(undefined);
  readonly totalLabel = input('total');

  protected readonly shares = computed(() => {
    const known = this.parts().filter((p) => p.ms != null && p.ms > 0);
    return this.parts().map((p, i) => ({
      label: p.label,
      share: p.ms != null && p.ms > 0 ? p.ms : known.length ? 0 : 1,
      color: COLORS[i % COLORS.length],
      text: formatMs(p.ms),
    }));
  });
  protected readonly hasTotal = computed(() => this.total() != null);
  protected readonly totalText = computed(() => formatMs(this.total()));
  protected readonly summary = computed(() => this.shares().map((p) => `${p.label} ${p.text}`).join(', '));
}
