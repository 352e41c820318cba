import { ChangeDetectionStrategy, Component, computed, input, untracked } from '@angular/core';
import { NgxEchartsDirective } from 'ngx-echarts';

import { Overview } from '../../api/overview/overview.model';
import { flinkJobUrl } from '../../api/overview/overview.service';
import { QueryView } from '../../api/statements/statements.model';
import { UNIT_PIPES } from '../../shared/format/unit-pipes';
import { StatePanel } from '../../shared/ui/state-panel';
import { StatusTag } from '../../shared/ui/status-tag';
import { buildTimelineMerge, buildTimelineOptions, hasClusterPhases, timelineLayoutKey, timelineOf } from './timeline-options';

/** What a query without the JobManager's phases says instead. */
export const NO_CLUSTER_SIDE = "the JobManager's side of this query is not known (job not seen by the hub)";

const ROW_PX = 44;
const CHROME_PX = 96;

/**
 * Queries of one statement as timelines: one row per query, the client's phases and its job's phases as the
 * JobManager reported them as two bars of the row on one axis of milliseconds since the query's start; below, each
 * query's outcome, gateway and job, linked to Flink's dashboard. Options are set once per layout and each refresh
 * streams only the bars through `[merge]`, so zoom and legend selection survive it.
 */
@Component({
  selector: 'fi-query-timeline',
  imports: [NgxEchartsDirective, StatePanel, StatusTag, ...UNIT_PIPES],
  changeDetection: ChangeDetectionStrategy.OnPush,
  host: {
    class: 'fi-chart fi-query-timeline',
    '[attr.data-rows]': 'queries().length',
    '[attr.data-phases]': 'drawnPhases()',
  },
  template: `
    @if (queries().length === 0) {
      <fi-state kind="empty" [message]="emptyMessage()" />
    } @else {
      <div echarts class="fi-chart-canvas" [style.height]="height()" [options]="options()" [merge]="merge()"></div>
      <ol class="fi-query-list">
        @for (item of items(); track item.key) {
          <li>
            <span class="fi-query-rank">#{{ $index + 1 }}</span>
            <fi-status-tag [status]="item.query.outcome" />
            <b>{{ item.query.e2eMs | fiMs }}</b>
            <span class="fi-muted">started {{ item.query.start | fiTime }}</span>
            <span>gateway <code>{{ item.query.source || 'this process' }}</code></span>
            @if (item.query.jobId; as jobId) {
              <span>job
                @if (item.jobUrl; as url) {
                  <a [href]="url" target="_blank" rel="noopener noreferrer" class="fi-job-link">{{ jobId }} ↗</a>
                } @else {
                  <code>{{ jobId }}</code>
                }
                @if (item.query.jobStatus; as status) {
                  <span class="fi-muted"> ({{ status }})</span>
                }
              </span>
            } @else {
              <span class="fi-muted">no job</span>
            }
            @if (!item.clusterSide) {
              <span class="fi-muted fi-no-cluster-side">{{ noClusterSide }}</span>
            }
          </li>
        }
      </ol>
    }
  `,
})
export class QueryTimeline {
  readonly queries = input.required<readonly QueryView[]>();
  /** The hub's overview, to link each job to Flink's dashboard (its copy under the hub's `/flink/` when served). */
  readonly overview = input<Overview | undefined>(undefined);
  readonly emptyMessage = input('No queries of this statement kept.');

  protected readonly noClusterSide = NO_CLUSTER_SIDE;

  private readonly timeline = computed(() => timelineOf(this.queries()));
  private readonly layout = computed(() => timelineLayoutKey(this.timeline()));

  protected readonly options = computed(() => {
    this.layout();
    return untracked(() => buildTimelineOptions(this.timeline()));
  });
  protected readonly merge = computed(() => buildTimelineMerge(this.timeline()));
  protected readonly height = computed(() => `${CHROME_PX + ROW_PX * this.queries().length}px`);
  protected readonly drawnPhases = computed(() =>
    this.timeline()
      .phases.filter((p) => p.bars.length > 0)
      .map((p) => p.id)
      .join(','),
  );

  protected readonly items = computed(() => {
    const overview = this.overview();
    return this.queries().map((query, i) => ({
      key: `${i}:${query.seq ?? ''}:${query.start}:${query.jobId ?? ''}`,
      query,
      clusterSide: hasClusterPhases(query),
      jobUrl: query.jobId ? flinkJobUrl(overview, query.jobId) : undefined,
    }));
  });
}
