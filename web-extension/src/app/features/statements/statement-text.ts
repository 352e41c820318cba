import { ChangeDetectionStrategy, Component, computed, input, signal } from '@angular/core';

/** How much of a statement's text a table row shows before "more". */
export const STATEMENT_PREVIEW_CHARS = 160;

/** The first {@link max} characters of {@link text} (whole code points), with "…" when there is more. */
export function preview(text: string, max = STATEMENT_PREVIEW_CHARS): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}

/**
 * A statement's SQL text, shortened to {@link STATEMENT_PREVIEW_CHARS} with the whole text in its title and behind
 * "more". Always text: the statement is user input (an alias can be `<img src=x onerror=alert(1)>`), so it goes
 * through interpolation only.
 */
@Component({
  selector: 'fi-statement-text',
  changeDetection: ChangeDetectionStrategy.OnPush,
  host: { class: 'fi-statement-text' },
  template: `
    <code class="fi-sql" [title]="text()">{{ expanded() ? text() : shown() }}</code>
    @if (long()) {
      <button type="button" class="fi-link-btn" [attr.aria-expanded]="expanded()"
              (click)="expanded.set(!expanded())">{{ expanded() ? 'less' : 'more' }}</button>
    }
  `,
})
export class StatementText {
  readonly text = input.required<string>();

  protected readonly expanded = signal(false);
  protected readonly shown = computed(() => preview(this.text()));
  protected readonly long = computed(() => this.shown() !== this.text());
}
