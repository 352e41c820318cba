import { ChangeDetectionStrategy, Component, computed, input } from '@angular/core';

const COLORS: Record<string, string> = {
  RUNNING: 'blue',
  IN_PROGRESS: 'blue',
  FINISHED: 'green',
  COMPLETED: 'green',
  FAILED: 'red',
  FAILING: 'orange',
  RESTARTING: 'orange',
  CANCELLING: 'default',
  CANCELED: 'default',
  SUSPENDED: 'default',
  CREATED: 'purple',
  INITIALIZING: 'purple',
  RECONCILING: 'purple',
};

/** A job or checkpoint status as a coloured tag, in the colours Flink's dashboard uses for the same states. */
@Component({
  selector: 'fi-status-tag',
  changeDetection: ChangeDetectionStrategy.OnPush,
  host: { '[class]': '"fi-tag fi-tag-" + color()' },
  template: `{{ status() || 'UNKNOWN' }}`,
})
export class StatusTag {
  readonly status = input<string | null | undefined>(undefined);
  protected readonly color = computed(() => COLORS[(this.status() ?? '').toUpperCase()] ?? 'default');
}
