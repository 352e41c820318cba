import { ChangeDetectionStrategy, Component, computed, input } from '@angular/core';

import { AsyncState } from './async-view';
import { StatePanel } from './state-panel';

/**
 * A page's error, shown once above its sections: the first of its {@link requests} that failed, titled by what it
 * loads ("Could not load checkpoints"), or "Hub unreachable" when no HTTP answer came.
 */
@Component({
  selector: 'fi-api-error',
  imports: [StatePanel],
  changeDetection: ChangeDetectionStrategy.OnPush,
  host: { class: 'fi-api-error' },
  template: `
    @if (failure(); as f) {
      <fi-state kind="error" [title]="f.error.unreachable ? 'Hub unreachable' : 'Could not load ' + f.what"
                [message]="f.error.message" />
    }
  `,
})
export class ApiErrorState {
  /** The page's requests by what each loads, in the order their errors take precedence. */
  readonly requests = input.required<Readonly<Record<string, Pick<AsyncState, 'error'>>>>();

  protected readonly failure = computed(() => {
    for (const [what, request] of Object.entries(this.requests())) {
      const error = request.error();
      if (error) {
        return { what, error };
      }
    }
    return undefined;
  });
}
