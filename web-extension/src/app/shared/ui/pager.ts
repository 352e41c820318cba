import { ChangeDetectionStrategy, Component, computed, input, model } from '@angular/core';

/** Slices {@link items} to page {@link page} of {@link size}, clamped to the last page that exists. */
export function pageOf<T>(items: readonly T[], page: number, size: number): readonly T[] {
  const last = Math.max(0, Math.ceil(items.length / size) - 1);
  const p = Math.min(Math.max(0, page), last);
  return items.slice(p * size, (p + 1) * size);
}

/** Previous/next paging under a table, like ng-zorro's simple pagination; hidden when one page holds all. */
@Component({
  selector: 'fi-pager',
  changeDetection: ChangeDetectionStrategy.OnPush,
  template: `
    @if (pages() > 1) {
      <nav class="fi-pager" [attr.aria-label]="label()">
        <button type="button" class="fi-btn" [disabled]="current() === 0" (click)="page.set(current() - 1)">‹ {{ previousText() }}</button>
        <span>page {{ current() + 1 }} of {{ pages() }} · {{ total() }} {{ noun() }}</span>
        <button type="button" class="fi-btn" [disabled]="current() + 1 >= pages()" (click)="page.set(current() + 1)">{{ nextText() }} ›</button>
      </nav>
    }
  `,
})
export class Pager {
  readonly page = model(0);
  readonly total = input.required<number>();
  readonly size = input.required<number>();
  readonly noun = input('rows');
  readonly label = input('Pages');
  readonly previousText = input('newer');
  readonly nextText = input('older');

  protected readonly pages = computed(() => Math.max(1, Math.ceil(this.total() / this.size())));
  protected readonly current = computed(() => Math.min(this.page(), this.pages() - 1));
}
