import { ChangeDetectionStrategy, Component, input } from '@angular/core';

/**
 * How a loading, empty or error state looks (ng-zorro's spin, empty and alert). Which one shows is chosen elsewhere:
 * by {@link AsyncView} for a section, by {@link ApiErrorState} for a page's error, by a chart for its empty state.
 */
@Component({
  selector: 'fi-state',
  changeDetection: ChangeDetectionStrategy.OnPush,
  host: { '[class]': '"fi-state fi-state-" + kind()', '[attr.role]': 'kind() === "error" ? "alert" : null' },
  template: `
    @switch (kind()) {
      @case ('loading') {
        <span class="fi-spin" aria-hidden="true"></span>
        <span class="fi-state-text">{{ message() || 'Loading…' }}</span>
      }
      @case ('error') {
        <span class="fi-alert-icon" aria-hidden="true">!</span>
        <div>
          <div class="fi-state-title">{{ title() }}</div>
          <div class="fi-state-text">{{ message() }}</div>
        </div>
      }
      @default {
        <svg class="fi-empty-icon" viewBox="0 0 64 41" aria-hidden="true">
          <g fill="none" fill-rule="evenodd" transform="translate(0 1)">
            <ellipse cx="32" cy="33" fill="#f5f5f5" rx="32" ry="7" />
            <g fill-rule="nonzero" stroke="#d9d9d9">
              <path d="M55 12.76L44.854 1.258C44.367.474 43.656 0 42.907 0H21.093c-.749 0-1.46.474-1.947 1.257L9 12.761V22h46v-9.24z" />
              <path d="M41.613 15.931c0-1.605.994-2.93 2.227-2.931H55v18.137C55 33.26 53.68 35 52.05 35h-40.1C10.32 35 9 33.259 9 31.137V13h11.16c1.233 0 2.227 1.323 2.227 2.928v.022c0 1.605 1.005 2.901 2.237 2.901h14.752c1.232 0 2.237-1.308 2.237-2.913v-.007z" fill="#fafafa" />
            </g>
          </g>
        </svg>
        @if (title()) {
          <div class="fi-state-title">{{ title() }}</div>
        }
        <div class="fi-state-text">{{ message() || 'No data' }}</div>
      }
    }
  `,
})
export class StatePanel {
  readonly kind = input.required<'loading' | 'empty' | 'error'>();
  readonly message = input<string | null | undefined>('');
  readonly title = input<string | undefined>(undefined);
}
