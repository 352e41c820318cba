import { ChangeDetectionStrategy, Component, computed, input, untracked } from '@angular/core';
import { NgxEchartsDirective } from 'ngx-echarts';

import { Unit } from '../format/units';
import { StatePanel } from '../ui/state-panel';
import {
  buildTimeChartMerge,
  buildTimeChartOptions,
  ChartSeries,
  layoutKey,
  TimeChartSpec,
} from './chart-options';

/** What a time chart says when the range holds no point. */
export const NO_DATA_IN_RANGE = 'No data in this time range yet.';

/**
 * A time-series chart over the selected range. Options are set once per layout (series and units); each refresh
 * streams only new data through `[merge]`, so zoom and legend selection survive the 5-second updates.
 */
@Component({
  selector: 'fi-time-chart',
  imports: [NgxEchartsDirective, StatePanel],
  changeDetection: ChangeDetectionStrategy.OnPush,
  host: {
    class: 'fi-chart',
    '[attr.data-series]': 'series().length',
    '[attr.data-points]': 'pointCount()',
  },
  template: `
    @if (pointCount() === 0) {
      <fi-state kind="empty" [message]="emptyMessage()" />
    } @else {
      <div echarts class="fi-chart-canvas" [style.height]="height()" [options]="options()" [merge]="merge()"></div>
    }
  `,
})
export class TimeChart {
  readonly series = input.required<readonly ChartSeries[]>();
  /** Unit of the left axis. */
  readonly unit = input<Unit>('count');
  /** Unit of the right axis, for series with `axis: 1`. */
  readonly unit2 = input<Unit | undefined>(undefined);
  readonly window = input<{ from: number; to: number } | undefined>(undefined);
  readonly height = input('260px');
  readonly emptyMessage = input(NO_DATA_IN_RANGE);

  protected readonly pointCount = computed(() =>
    this.series().reduce((n, s) => n + s.points.filter((p) => p[1] != null).length, 0),
  );

  private readonly spec = computed<TimeChartSpec>(() => {
    const unit2 = this.unit2();
    return { units: unit2 ? [this.unit(), unit2] : [this.unit()], window: this.window() };
  });

  private readonly layout = computed(() => layoutKey(this.series(), this.spec()));

  protected readonly options = computed(() => {
    this.layout();
    return untracked(() => buildTimeChartOptions(this.series(), this.spec()));
  });

  protected readonly merge = computed(() => buildTimeChartMerge(this.series(), this.spec()));
}
