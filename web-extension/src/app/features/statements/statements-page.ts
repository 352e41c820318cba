import { ChangeDetectionStrategy, Component, computed, inject, input, signal } from '@angular/core';
import { Router, RouterLink } from '@angular/router';

import { HubOverview } from '../../api/overview/hub-overview';
import {
  DEFAULT_STATEMENT_SORT,
  isStatementId,
  StatementSort,
  statementSort,
} from '../../api/statements/statements.model';
import { StatementsService } from '../../api/statements/statements.service';
import { liveQuery } from '../../core/live-query';
import { ViewState } from '../../core/view-state';
import { ChartCard } from '../../shared/chart/chart-card';
import { UNIT_PIPES } from '../../shared/format/unit-pipes';
import { ApiErrorState } from '../../shared/ui/api-error-state';
import { AsyncView } from '../../shared/ui/async-view';
import { Pager, pageOf } from '../../shared/ui/pager';
import { StatePanel } from '../../shared/ui/state-panel';
import { QueryTimeline } from './query-timeline';
import { StatementText } from './statement-text';

/** Rows per page of the statements table. */
export const PAGE_SIZE = 25;

/** The orders of the table, as the hub sorts them; the URL keeps the chosen one (`?sort=p99`). */
export const SORT_OPTIONS: readonly { readonly key: StatementSort; readonly label: string }[] = [
  { key: 'total', label: 'Total time' },
  { key: 'p99', label: 'p99' },
  { key: 'calls', label: 'Calls' },
  { key: 'failures', label: 'Failures' },
];

/** What the page says when the hub has no statement at all. */
export const NO_STATEMENTS =
  'No statements yet: the hub reads them from the gateways listed in metrics.reporter.insight.hub.clients, where' +
  " the interactive client and Insight's trace reporter run.";

/** The query parameter of a sort: none for the default, so the plain page's URL stays short. */
export function sortParam(sort: StatementSort): string | null {
  return sort === DEFAULT_STATEMENT_SORT ? null : sort;
}

/**
 * Statements as `pg_stat_statements` keeps them, for the interactive client's queries: each normalized statement's
 * share of the total time, calls, failures and latencies, sorted by the hub, limited to those that ran in the time
 * range; a statement opens its slowest and latest queries as timelines of the client's and the JobManager's phases.
 */
@Component({
  selector: 'fi-statements-page',
  imports: [
    RouterLink, ApiErrorState, AsyncView, ChartCard, Pager, StatePanel, QueryTimeline, StatementText, ...UNIT_PIPES,
  ],
  changeDetection: ChangeDetectionStrategy.OnPush,
  templateUrl: './statements-page.html',
})
export class StatementsPage {
  private readonly router = inject(Router);
  private readonly view = inject(ViewState);
  private readonly statementsApi = inject(StatementsService);

  /** Bound from the `sort` query parameter. */
  readonly sort = input<string | undefined>(undefined);
  /** Bound from the `statement` query parameter: the statement whose queries are open. */
  readonly statement = input<string | undefined>(undefined);

  protected readonly sortOptions = SORT_OPTIONS;
  protected readonly noStatements = NO_STATEMENTS;
  protected readonly currentSort = computed(() => statementSort(this.sort()));
  protected readonly selectedId = computed(() => {
    const id = this.statement();
    return isStatementId(id) ? id : undefined;
  });
  protected readonly badSelection = computed(() => !!this.statement() && !this.selectedId());
  /** A custom range's end does not narrow the statements: the API takes only a start. */
  protected readonly customRange = computed(() => this.view.params().range === 'custom');

  protected readonly statements = liveQuery(() =>
    this.statementsApi.statements(this.currentSort(), this.view.window()),
  );
  protected readonly queries = liveQuery(() => {
    const id = this.selectedId();
    return id ? this.statementsApi.queries(id) : undefined;
  });
  /** The hub's overview the whole panel shares: where Flink's dashboard is, for the job links. */
  protected readonly overview = inject(HubOverview).query;

  /** The requests whose first failure shows once at the top, by what they load. */
  protected readonly requests = { statements: this.statements, "the statement's queries": this.queries };

  private readonly all = computed(() => this.statements.value()?.statements ?? []);
  protected readonly kept = computed(() => this.statements.value()?.kept ?? 0);
  protected readonly emptyMessage = computed(() =>
    this.kept() === 0
      ? this.noStatements
      : `No statement ran a query in this time range; the hub keeps ${this.kept()}. Choose a longer range.`,
  );

  protected readonly pageSize = PAGE_SIZE;
  protected readonly page = signal(0);
  protected readonly rows = computed(() => pageOf(this.all(), this.page(), PAGE_SIZE));

  /** The open statement's row, when it is in the table. */
  protected readonly selectedRow = computed(() => this.all().find((s) => s.id === this.selectedId()));
  /** The open statement's text: from its queries' answer, else from its row. */
  protected readonly selectedText = computed(
    () => this.queries.value()?.statement ?? this.selectedRow()?.statement ?? undefined,
  );

  protected setSort(sort: StatementSort): void {
    this.page.set(0);
    void this.router.navigate([], { queryParams: { sort: sortParam(sort) }, queryParamsHandling: 'merge' });
  }
}
