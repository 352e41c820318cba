import { ChangeDetectionStrategy, Component, input } from '@angular/core';

import { Capability } from '../../api/overview/overview.model';

/**
 * Says why a figure is missing when the cluster's Flink does not give it: which Flink version (and option) would,
 * and what the panel shows instead. Renders nothing when the capability is there or unknown.
 */
@Component({
  selector: 'fi-capability-note',
  changeDetection: ChangeDetectionStrategy.OnPush,
  host: { class: 'fi-capability-note', role: 'note', '[hidden]': '!capability()' },
  template: `
    @if (capability(); as c) {
      <span class="fi-note-icon" aria-hidden="true">i</span>
      <span>
        <strong>{{ what() }} come with Flink {{ c.since }} or newer</strong>
        @if (c.option) {
          <span> with <code>{{ c.option }}</code></span>
        }
        <span>; this cluster runs Flink {{ flinkVersion() || '(unknown)' }}.</span>
        <span class="fi-muted"> Instead, {{ c.whenMissing }}.</span>
      </span>
    }
  `,
})
export class CapabilityNote {
  /** The missing capability (see `missingCapability`), or undefined to show nothing. */
  readonly capability = input<Capability | undefined>(undefined);
  readonly flinkVersion = input<string | undefined>(undefined);
  /** What the reader misses, in the plural, e.g. "Sync and async phase figures". */
  readonly what = input.required<string>();
}
