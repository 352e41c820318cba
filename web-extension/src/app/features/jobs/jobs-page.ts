import { ChangeDetectionStrategy, Component, computed, inject, input, signal } from '@angular/core';
import { Router, RouterLink } from '@angular/router';

import { JobsService } from '../../api/jobs/jobs.service';
import { flinkDashboardUrl, flinkJobUrl, missingCapability, OverviewService } from '../../api/overview/overview.service';
import { liveQuery } from '../../core/live-query';
import { UNIT_PIPES } from '../../shared/format/unit-pipes';
import { ApiErrorState } from '../../shared/ui/api-error-state';
import { AsyncView } from '../../shared/ui/async-view';
import { CapabilityNote } from '../../shared/ui/capability-note';
import { Pager, pageOf } from '../../shared/ui/pager';
import { StatusTag } from '../../shared/ui/status-tag';

/** Rows per page of the jobs table. */
export const PAGE_SIZE = 25;

/** The status filters of the jobs list; the URL keeps the chosen one (`?status=running`). */
export const JOB_FILTERS = [
  { key: 'all', label: 'All', statuses: [] as string[] },
  { key: 'running', label: 'Running', statuses: ['RUNNING', 'CREATED', 'INITIALIZING', 'RESTARTING', 'FAILING', 'CANCELLING', 'RECONCILING'] },
  { key: 'finished', label: 'Finished', statuses: ['FINISHED'] },
  { key: 'failed', label: 'Failed / canceled', statuses: ['FAILED', 'CANCELED', 'SUSPENDED'] },
] as const;
export type JobFilterKey = (typeof JOB_FILTERS)[number]['key'];

/** Running and recent jobs with status, cluster-side latency and the last checkpoint, linked to their pages. */
@Component({
  selector: 'fi-jobs-page',
  imports: [RouterLink, AsyncView, ApiErrorState, StatusTag, Pager, CapabilityNote, ...UNIT_PIPES],
  changeDetection: ChangeDetectionStrategy.OnPush,
  templateUrl: './jobs-page.html',
})
export class JobsPage {
  private readonly router = inject(Router);
  private readonly jobsApi = inject(JobsService);
  private readonly overviewApi = inject(OverviewService);

  /** Bound from the `status` query parameter. */
  readonly status = input<string | undefined>(undefined);

  protected readonly filters = JOB_FILTERS;
  protected readonly jobs = liveQuery(() => this.jobsApi.list());
  protected readonly overview = liveQuery(() => this.overviewApi.overview());

  protected readonly filter = computed(
    () => JOB_FILTERS.find((f) => f.key === this.status()) ?? JOB_FILTERS[0],
  );

  /** Jobs of the chosen status: running ones first (as Flink's dashboard lists them), then newest first. */
  protected readonly matching = computed(() => {
    const statuses: readonly string[] = this.filter().statuses;
    return (this.jobs.value()?.jobs ?? [])
      .filter((j) => !statuses.length || statuses.includes(j.status ?? ''))
      .sort((a, b) => Number(a.terminal) - Number(b.terminal) || (b.createdAt ?? 0) - (a.createdAt ?? 0));
  });

  protected readonly flinkDashboard = computed(() => flinkDashboardUrl(this.overview.value()));
  /** Set when the cluster's Flink reports no job events (before 2.2): the list then comes from its REST API. */
  protected readonly noJobEvents = computed(() => missingCapability(this.overview.value(), 'job-events'));
  protected readonly pageSize = PAGE_SIZE;
  protected readonly page = signal(0);
  protected readonly rows = computed(() => {
    const overview = this.overview.value();
    return pageOf(this.matching(), this.page(), PAGE_SIZE).map((job) => ({
      job,
      flinkUrl: flinkJobUrl(overview, job.jobId),
    }));
  });

  protected readonly counts = computed(() => {
    const all = this.jobs.value()?.jobs ?? [];
    return { total: this.jobs.value()?.total ?? 0, running: all.filter((j) => !j.terminal).length };
  });

  protected setFilter(key: JobFilterKey): void {
    this.page.set(0);
    void this.router.navigate([], {
      queryParams: { status: key === 'all' ? null : key },
      queryParamsHandling: 'merge',
    });
  }
}
