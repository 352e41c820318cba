import { effect, inject, Injectable, signal } from '@angular/core';
import { DOCUMENT } from '@angular/common';

import { ViewState } from './view-state';

/**
 * Ticks every refresh interval while auto-refresh is on and the tab is visible; live queries re-fetch on each
 * tick. A hidden tab does not poll the hub.
 */
@Injectable({ providedIn: 'root' })
export class RefreshClock {
  private readonly view = inject(ViewState);
  private readonly document = inject(DOCUMENT);
  private readonly ticks = signal(0);

  /** Increments on each refresh; read it to re-run on refresh. */
  readonly tick = this.ticks.asReadonly();

  constructor() {
    effect((onCleanup) => {
      const interval = this.view.refreshMs();
      if (interval <= 0) {
        return;
      }
      const id = setInterval(() => {
        if (this.document.visibilityState !== 'hidden') {
          this.ticks.update((n) => n + 1);
        }
      }, interval);
      // Back on a tab that was hidden: show fresh figures at once instead of up to one interval later.
      const onVisible = () => {
        if (this.document.visibilityState === 'visible') {
          this.ticks.update((n) => n + 1);
        }
      };
      this.document.addEventListener('visibilitychange', onVisible);
      onCleanup(() => {
        clearInterval(id);
        this.document.removeEventListener('visibilitychange', onVisible);
      });
    });
  }

  /** Refresh now (the refresh button), whether or not auto-refresh is on. */
  refreshNow(): void {
    this.ticks.update((n) => n + 1);
  }
}
