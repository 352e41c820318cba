import { TestBed } from '@angular/core/testing';
import { HttpTestingController } from '@angular/common/http/testing';
import { Router } from '@angular/router';
import { RouterTestingHarness } from '@angular/router/testing';

import { HOSTILE_NAME, JOB_ID, queryView, STATEMENT_ID, statementRow } from '../../../testing/payloads';
import { answer, failNetwork, panelTestProviders, settle } from '../../../testing/testing-providers';
import { TestingEcharts } from '../../../testing/testing-echarts';
import { StatementRow } from '../../api/statements/statements.model';
import { NO_CLUSTER_SIDE } from './query-timeline';
import { NO_STATEMENTS, sortParam, StatementsPage } from './statements-page';

const HOSTILE_STATEMENT = `SELECT ? AS \`${HOSTILE_NAME}\``;

async function open(url: string, echarts = new TestingEcharts()) {
  TestBed.configureTestingModule({ providers: panelTestProviders(echarts) });
  const harness = await RouterTestingHarness.create();
  await harness.navigateByUrl(url, StatementsPage);
  await settle();
  return harness;
}

/** Answers the open statements request with {@link rows}; returns the parameters it was asked with. */
function answerStatements(rows: StatementRow[], kept = rows.length): Record<string, string | null> {
  const http = TestBed.inject(HttpTestingController);
  const [request] = http.match((r) => r.url === 'api/v1/statements');
  expect(request).toBeDefined();
  const params = Object.fromEntries(request.request.params.keys().map((k) => [k, request.request.params.get(k)]));
  request.flush({ sort: params['sort'], kept, statements: rows });
  return params;
}

function texts(page: HTMLElement, selector: string): string[] {
  return [...page.querySelectorAll(selector)].map((e) => e.textContent?.replace(/\s+/g, ' ').trim() ?? '');
}

describe('StatementsPage', () => {
  it('asks the hub for the sort in the URL and the time range', async () => {
    await open('/statements?sort=p99&range=1h&refresh=off');
    expect(answerStatements([])).toEqual({ sort: 'p99', limit: '200', from: '-1h' });
  });

  it("asks for the statements since a custom range's start, and says so", async () => {
    const harness = await open('/statements?range=custom&from=1700000000000&to=1700000600000');
    expect(answerStatements([statementRow()])).toEqual({ sort: 'total', limit: '200', from: '1700000000000' });
    await settle();
    expect(harness.routeNativeElement?.textContent).toContain('1 ran since the range started');
  });

  it('writes the chosen sort to the URL and asks again in that order', async () => {
    const harness = await open('/statements?refresh=off');
    expect(answerStatements([statementRow()])['sort']).toBe('total');
    await settle();
    const page = harness.routeNativeElement as HTMLElement;
    (page.querySelector('button[data-sort="calls"]') as HTMLButtonElement).click();
    await settle();
    const router = TestBed.inject(Router);
    expect(router.url).toBe('/statements?refresh=off&sort=calls');
    expect(answerStatements([statementRow()])['sort']).toBe('calls');
    await settle();
    expect(page.querySelector('[role="radio"][aria-checked="true"]')?.textContent?.trim()).toBe('Calls');
    (page.querySelector('button[data-sort="total"]') as HTMLButtonElement).click();
    await settle();
    // the default order needs no parameter
    expect(router.url).toBe('/statements?refresh=off');
    expect(sortParam('total')).toBeNull();
    expect(sortParam('failures')).toBe('failures');
  });

  it('falls back to total time for a sort the hub does not know', async () => {
    await open('/statements?sort=mean');
    expect(answerStatements([])['sort']).toBe('total');
  });

  it("lists the statements in the hub's order with their share and figures", async () => {
    const harness = await open('/statements?sort=p99');
    answerStatements([
      statementRow({ id: 'bbbbbbbbbbbbbbbb', statement: 'SELECT slow', p99Ms: 4_000, share: 0.25, failed: 2, canceled: 1 }),
      statementRow({ id: 'aaaaaaaaaaaaaaaa', statement: 'SELECT fast', p99Ms: 40, share: 0.75, clusterP50Ms: null }),
    ]);
    await settle();
    const page = harness.routeNativeElement as HTMLElement;
    expect(texts(page, 'tbody tr code.fi-sql')).toEqual(['SELECT slow', 'SELECT fast']);
    const [slow, fast] = [...page.querySelectorAll('tbody tr')].map((r) => r.textContent?.replace(/\s+/g, ' ') ?? '');
    expect(slow).toContain('25 %');
    expect(slow).toContain('4 s');
    expect(slow).toContain('2 · 1');
    expect(fast).toContain('75 %');
    expect(fast).toContain('– · 300 ms');
    expect((page.querySelector('.fi-share-bar') as HTMLElement).style.width).toBe('25%');
    expect(page.textContent).toContain('each with its figures since the hub first saw it');
  });

  it('shows a statement whose text is HTML as text, shortened with the whole text behind "more"', async () => {
    const long = `${HOSTILE_STATEMENT} UNION ALL ${'SELECT ? '.repeat(40)}`;
    const harness = await open('/statements');
    answerStatements([statementRow({ statement: HOSTILE_STATEMENT }), statementRow({ id: 'cccccccccccccccc', statement: long })]);
    await settle();
    const page = harness.routeNativeElement as HTMLElement;
    const [hostile, shortened] = [...page.querySelectorAll('code.fi-sql')] as HTMLElement[];
    expect(hostile.textContent).toBe(HOSTILE_STATEMENT);
    expect(page.querySelector('img')).toBeNull();
    expect(shortened.textContent?.endsWith('…')).toBe(true);
    expect(shortened.textContent?.length).toBe(160);
    expect(shortened.getAttribute('title')).toBe(long);
    const more = page.querySelector('button.fi-link-btn') as HTMLButtonElement;
    expect(more.textContent?.trim()).toBe('more');
    more.click();
    await settle();
    expect(shortened.textContent).toBe(long);
    expect(more.getAttribute('aria-expanded')).toBe('true');
    expect(page.querySelector('img')).toBeNull();
  });

  it("links each statement to its queries, keeping the view's parameters", async () => {
    const harness = await open('/statements?range=1h&sort=calls');
    answerStatements([statementRow()]);
    await settle();
    const link = harness.routeNativeElement?.querySelector('a.fi-open-statement') as HTMLAnchorElement;
    expect(link.getAttribute('href')).toBe(`#/statements?range=1h&sort=calls&statement=${STATEMENT_ID}`);
  });

  it("opens a statement's slowest and latest queries as timelines, each job linked through the hub's proxy", async () => {
    const echarts = new TestingEcharts();
    const harness = await open(`/statements?statement=${STATEMENT_ID}`, echarts);
    answerStatements([statementRow({ statement: HOSTILE_STATEMENT })]);
    answer('api/v1/overview', { role: 'jobmanager', flinkDashboardPath: '/flink/' });
    const [request] = TestBed.inject(HttpTestingController).match((r) => r.url === 'api/v1/queries');
    expect(request.request.params.get('statement')).toBe(STATEMENT_ID);
    request.flush({
      statementId: STATEMENT_ID,
      statement: HOSTILE_STATEMENT,
      slowest: [queryView(2_000_000, true, { e2eMs: 900, outcome: 'FAILED' }), queryView(1_000_000, false)],
      latest: [queryView(3_000_000)],
    });
    await settle();
    const page = harness.routeNativeElement as HTMLElement;
    expect(page.querySelector('pre.fi-sql-full')?.textContent).toBe(HOSTILE_STATEMENT);
    expect(page.querySelector('img')).toBeNull();
    expect(page.querySelector('tr.fi-selected')).not.toBeNull();

    const [slowest, latest] = [...page.querySelectorAll('fi-query-timeline')] as HTMLElement[];
    expect(slowest.getAttribute('data-rows')).toBe('2');
    expect(latest.getAttribute('data-rows')).toBe('1');
    const items = texts(slowest, '.fi-query-list li');
    expect(items[0]).toContain('FAILED');
    expect(items[0]).toContain('900 ms');
    expect(items[0]).toContain('gateway 127.0.0.1:9261');
    expect(items[0]).not.toContain(NO_CLUSTER_SIDE);
    expect(items[1]).toContain(NO_CLUSTER_SIDE);
    const jobLink = slowest.querySelector('a.fi-job-link') as HTMLAnchorElement;
    expect(jobLink.getAttribute('href')).toBe(`flink/#/job/running/${JOB_ID}/overview`);
    expect(jobLink.getAttribute('rel')).toContain('noopener');

    // two charts, each with its rows and a legend of the phases
    const charts = echarts.charts.map((c) => c.calls.find((call) => call.notMerge)!.option);
    expect(charts.length).toBe(2);
    expect((charts[0]['yAxis'] as { data: string[] }).data).toEqual(['#1 FAILED 900 ms', '#2 SUCCEEDED 300 ms']);
    expect((charts[0]['legend'] as { data: string[] }).data).toContain('cluster · scheduling');
  });

  it('says so when the hub keeps no statement with the id', async () => {
    const harness = await open(`/statements?statement=${STATEMENT_ID}`);
    answerStatements([]);
    answer('api/v1/queries', { statementId: STATEMENT_ID, statement: null, slowest: [], latest: [] });
    await settle();
    const page = harness.routeNativeElement as HTMLElement;
    expect(page.textContent).toContain('The hub keeps no statement with this id');
    expect(texts(page, 'fi-query-timeline fi-state')).toEqual([
      'No queries of this statement kept.', 'No queries of this statement kept.',
    ]);
  });

  it('refuses a statement id that is not one, without asking the hub', async () => {
    const harness = await open('/statements?statement=..%2Fjobs');
    answerStatements([]);
    await settle();
    expect(answer('api/v1/queries', {}).length).toBe(0);
    expect(harness.routeNativeElement?.textContent).toContain('Not a statement id');
  });

  it('says where statements come from when the hub has none', async () => {
    const harness = await open('/statements');
    answerStatements([], 0);
    await settle();
    const state = harness.routeNativeElement?.querySelector('fi-state.fi-state-empty');
    expect(state?.textContent).toContain('No statements yet');
    expect(state?.textContent).toContain(NO_STATEMENTS);
    expect(state?.textContent).toContain('metrics.reporter.insight.hub.clients');
  });

  it('says when no statement ran in the range although the hub keeps some', async () => {
    const harness = await open('/statements?range=5m');
    answerStatements([], 7);
    await settle();
    const state = harness.routeNativeElement?.querySelector('fi-state.fi-state-empty');
    expect(state?.textContent).toContain('No statement ran a query in this time range; the hub keeps 7.');
    expect(state?.textContent).not.toContain('No statements yet');
  });

  it('shows the error state when the hub is unreachable', async () => {
    const harness = await open('/statements');
    expect(failNetwork('api/v1/statements')).toBe(1);
    await settle();
    const error = harness.routeNativeElement?.querySelector('fi-state.fi-state-error');
    expect(error?.textContent).toContain('Hub unreachable');
    expect(harness.routeNativeElement?.querySelector('table')).toBeNull();
  });
});
