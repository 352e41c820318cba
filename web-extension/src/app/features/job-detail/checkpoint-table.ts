import { ChangeDetectionStrategy, Component, computed, input, signal } from '@angular/core';

import { CheckpointRecord } from '../../api/checkpoints/checkpoints.model';
import { UNIT_PIPES } from '../../shared/format/unit-pipes';
import { Pager, pageOf } from '../../shared/ui/pager';
import { StatusTag } from '../../shared/ui/status-tag';

/** Rows per page: the hub keeps up to 1,000 checkpoints per job, a page should not draw them all. */
export const PAGE_SIZE = 20;

/**
 * Checkpoint history as Flink's dashboard shows it, plus what it leaves out: the async phase's uploaded size
 * against the full size and per-phase maxima; a row opens to its tasks (when the span detail level gives them).
 */
@Component({
  selector: 'fi-checkpoint-table',
  imports: [StatusTag, Pager, ...UNIT_PIPES],
  changeDetection: ChangeDetectionStrategy.OnPush,
  template: `
    <div class="fi-table-wrap">
      <table class="fi-table">
        <thead>
          <tr>
            <th>ID</th>
            <th>Status</th>
            <th>Trigger time</th>
            <th class="num">Duration</th>
            <th class="num">Checkpointed size</th>
            <th class="num">Full size</th>
            <th class="num">Async (max)</th>
            <th class="num">Sync (max)</th>
            <th class="num">Alignment (max)</th>
            <th class="num">Start delay (max)</th>
            <th class="num">Processed · persisted</th>
          </tr>
        </thead>
        <tbody>
          @for (c of rows(); track c.checkpointId) {
            <tr>
              <td class="num">
                <button type="button" class="fi-expand" (click)="toggle(c.checkpointId)"
                        [attr.aria-expanded]="expanded().has(c.checkpointId)"
                        [attr.aria-label]="'Tasks of checkpoint ' + c.checkpointId">
                  {{ expanded().has(c.checkpointId) ? '−' : '+' }}
                </button>{{ c.checkpointId }}
              </td>
              <td>
                <fi-status-tag [status]="c.status" />
                @if (c.type && c.type !== 'Checkpoint') {
                  <span class="fi-muted"> {{ c.type }}</span>
                }
              </td>
              <td class="fi-nowrap">{{ c.triggerTime | fiTime }}</td>
              <td class="num">{{ c.durationMs | fiMs }}</td>
              <td class="num">{{ c.checkpointedSize | fiBytes }}</td>
              <td class="num">{{ c.fullSize | fiBytes }}</td>
              <td class="num">{{ c.max.asyncDurationMs | fiMs }}</td>
              <td class="num">{{ c.max.syncDurationMs | fiMs }}</td>
              <td class="num">{{ c.max.alignmentDurationMs | fiMs }}</td>
              <td class="num">{{ c.max.startDelayMs | fiMs }}</td>
              <td class="num">{{ c.sum.processedDataBytes | fiBytes }} · {{ c.sum.persistedDataBytes | fiBytes }}</td>
            </tr>
            @if (expanded().has(c.checkpointId)) {
              <tr class="fi-subrow">
                <td colspan="11">
                  @if (c.tasks.length) {
                    <table class="fi-table">
                      <thead>
                        <tr>
                          <th>Task</th>
                          <th class="num">Checkpointed (sum)</th>
                          <th class="num">State size (sum)</th>
                          <th class="num">Async (max)</th>
                          <th class="num">Sync (max)</th>
                          <th class="num">Alignment (max)</th>
                          <th class="num">Start delay (max)</th>
                          <th class="num">Subtasks</th>
                        </tr>
                      </thead>
                      <tbody>
                        @for (t of c.tasks; track t.vertexId) {
                          <tr>
                            <td class="fi-name">{{ t.vertexName || vertexNames()[t.vertexId] || t.vertexId }}</td>
                            <td class="num">{{ t.sum.checkpointedSizeBytes | fiBytes }}</td>
                            <td class="num">{{ t.sum.stateSizeBytes | fiBytes }}</td>
                            <td class="num">{{ t.max.asyncDurationMs | fiMs }}</td>
                            <td class="num">{{ t.max.syncDurationMs | fiMs }}</td>
                            <td class="num">{{ t.max.alignmentDurationMs | fiMs }}</td>
                            <td class="num">{{ t.max.startDelayMs | fiMs }}</td>
                            <td class="num">{{ t.subtasks.length || '–' }}</td>
                          </tr>
                        }
                      </tbody>
                    </table>
                  } @else {
                    <p class="fi-card-note">
                      No per-task figures for this checkpoint: set
                      <code>traces.checkpoint.span-detail-level: CHILDREN_SPANS_PER_TASK</code> on the cluster to get them.
                    </p>
                  }
                </td>
              </tr>
            }
          }
        </tbody>
      </table>
    </div>
    <fi-pager [(page)]="page" [total]="checkpoints().length" [size]="pageSize" noun="checkpoints"
              label="Checkpoint pages" />
  `,
})
export class CheckpointTable {
  /** Newest first. */
  readonly checkpoints = input.required<readonly CheckpointRecord[]>();
  /** Vertex id to name (from the jobs API), for tasks the checkpoint record does not name. */
  readonly vertexNames = input<Readonly<Record<string, string>>>({});

  protected readonly pageSize = PAGE_SIZE;
  protected readonly page = signal(0);
  // New data can shrink the list below the page shown: pageOf stays on the last page that exists.
  protected readonly rows = computed(() => pageOf(this.checkpoints(), this.page(), PAGE_SIZE));
  protected readonly expanded = signal<ReadonlySet<number>>(new Set());

  protected toggle(id: number): void {
    this.expanded.update((open) => {
      const next = new Set(open);
      if (!next.delete(id)) {
        next.add(id);
      }
      return next;
    });
  }
}
