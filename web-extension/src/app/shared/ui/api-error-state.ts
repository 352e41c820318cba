import { ChangeDetectionStrategy, Component, input } from '@angular/core';

import { ApiError } from '../../core/api-error';
import { StatePanel } from './state-panel';

/** A page's error, shown once above its sections: "Hub unreachable" when no HTTP answer came, else {@link title}. */
@Component({
  selector: 'fi-api-error',
  imports: [StatePanel],
  changeDetection: ChangeDetectionStrategy.OnPush,
  host: { class: 'fi-api-error' },
  template: `
    @if (error(); as e) {
      <fi-state kind="error" [title]="e.unreachable ? 'Hub unreachable' : title()" [message]="e.message" />
    }
  `,
})
export class ApiErrorState {
  readonly error = input.required<ApiError | undefined>();
  readonly title = input('Could not load data');
}
