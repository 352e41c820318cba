import { TestBed } from '@angular/core/testing';
import { RouterTestingHarness } from '@angular/router/testing';

import { checkpointRecord, clientFigures, HOSTILE_NAME, JOB_ID, jobRecord, seriesResponse } from '../../../testing/payloads';
import { answer, failNetwork, failWith, panelTestProviders, settle } from '../../../testing/testing-providers';
import { TestingEcharts } from '../../../testing/testing-echarts';
import { checkpointLimit, OverviewPage } from './overview-page';

async function open(echarts = new TestingEcharts(), query = 'refresh=off') {
  TestBed.configureTestingModule({ providers: panelTestProviders(echarts) });
  const harness = await RouterTestingHarness.create();
  await harness.navigateByUrl(`/overview?${query}`, OverviewPage);
  await settle();
  return harness;
}

describe('OverviewPage', () => {
  it('shows the client-path figures beside the cluster-side job time', async () => {
    const harness = await open();
    const now = Date.now();
    answer('api/v1/client', clientFigures(true));
    answer('api/v1/jobs', {
      total: 2,
      matched: 2,
      jobs: [
        jobRecord({ jobId: 'a'.repeat(32), status: 'FINISHED', terminal: true, endedAt: now - 1000, clusterLatencyMs: 200 }),
        jobRecord({ jobId: 'b'.repeat(32), status: 'RUNNING' }),
      ],
    });
    answer('api/v1/checkpoints', { jobs: [] });
    answer('api/v1/series', seriesResponse('insight_vertex_latency_ms', []));
    await settle();
    const text = harness.routeNativeElement?.textContent ?? '';
    expect(text).toContain('90 %');
    expect(text).toContain('95 %');
    expect(text).toContain('260 ms · 540 ms');
    expect(text).toContain('1 jobs ended in range · 1 running');
    expect(text).toContain('No checkpoints in this time range yet.');
  });

  it('charts checkpoint sizes per job, with escaped names', async () => {
    const echarts = new TestingEcharts();
    await open(echarts);
    answer('api/v1/client', clientFigures(false));
    answer('api/v1/jobs', { total: 0, matched: 0, jobs: [] });
    answer('api/v1/checkpoints', {
      jobs: [{ jobId: JOB_ID, jobName: HOSTILE_NAME, checkpoints: [checkpointRecord({ endTime: Date.now() - 1000 })] }],
    });
    answer('api/v1/series', seriesResponse('insight_vertex_latency_ms', []));
    await settle();
    const size = echarts.charts
      .map((c) => c.calls.find((call) => call.notMerge)?.option)
      .find((o) => (o?.['series'] as { id: string }[]).some((s) => s.id === `size:${JOB_ID}`));
    expect(size).toBeDefined();
    const tooltip = size!['tooltip'] as { formatter: (p: unknown) => string };
    const html = tooltip.formatter([{ seriesIndex: 0, seriesName: HOSTILE_NAME, value: [1, 1024] }]);
    expect(html).toContain('&lt;img');
    expect(html).not.toContain('<img');
  });

  it('says how to get client figures when there are none', async () => {
    const harness = await open();
    answer('api/v1/client', clientFigures(false));
    await settle();
    const text = harness.routeNativeElement?.textContent ?? '';
    expect(text).toContain('No client figures yet');
    expect(text).toContain('interactive-client jar');
    expect(text).not.toContain('Client-pool hit rate');
  });

  it('shows the error once when the hub is unreachable, and no section pretends the cluster has no data', async () => {
    const harness = await open();
    for (const path of ['api/v1/client', 'api/v1/jobs', 'api/v1/checkpoints', 'api/v1/series']) {
      expect(failNetwork(path)).toBe(1);
    }
    await settle();
    const page = harness.routeNativeElement as HTMLElement;
    expect(page.querySelectorAll('fi-state.fi-state-error').length).toBe(1);
    expect(page.querySelector('fi-state.fi-state-error')?.textContent).toContain('unreachable');
    // No section pretends the cluster has no data.
    expect(page.textContent).not.toContain('No checkpoints in this time range yet.');
    expect(page.textContent).not.toContain('No client figures yet');
    expect(page.textContent).toContain('Not available: the hub did not answer.');
  });

  it('says how to narrow the checkpoints when their answer is larger than the hub allows', async () => {
    const harness = await open();
    answer('api/v1/client', clientFigures(true));
    answer('api/v1/jobs', { total: 0, matched: 0, jobs: [] });
    answer('api/v1/series', seriesResponse('insight_vertex_latency_ms', []));
    // The hub's 413 body, as RequestRouter writes it for /api/v1/checkpoints.
    expect(failWith('api/v1/checkpoints', 413, {
      error: 'the answer of /api/v1/checkpoints is larger than metrics.reporter.insight.http.max-answer-bytes'
        + ' (16777216 bytes); narrow it with job (one job), from (a later start, e.g. -15m), limit (fewer'
        + ' checkpoints per job), tasks=false (no per-task details), or raise that option',
      status: 413,
      narrowBy: ['job (one job)', 'from (a later start, e.g. -15m)', 'limit (fewer checkpoints per job)',
        'tasks=false (no per-task details)'],
    })).toBe(1);
    await settle();
    const page = harness.routeNativeElement as HTMLElement;
    const error = page.querySelector('fi-state.fi-state-error');
    expect(error?.textContent).toContain('Could not load checkpoints');
    expect(error?.textContent).toContain(
      "The answer is larger than the hub's limit; narrow it by: job (one job), from (a later start, e.g. -15m),"
        + ' limit (fewer checkpoints per job), tasks=false (no per-task details) (HTTP 413)',
    );
    // Both checkpoint charts say why they are empty; the other sections show their answers.
    const notes = [...page.querySelectorAll('fi-state.fi-state-empty')].map((n) => n.textContent ?? '');
    expect(notes.filter((n) => n.includes("Not available: The answer is larger than the hub's limit"))).toHaveLength(2);
    expect(page.textContent).toContain('90 %');
  });

  it("links where a query's time goes to the statements, keeping the view", async () => {
    const harness = await open();
    const link = [...(harness.routeNativeElement as HTMLElement).querySelectorAll('a')].find(
      (a) => a.getAttribute('href')?.startsWith('#/statements'),
    );
    expect(link?.closest('section')?.querySelector('h2')?.textContent).toBe("Where a query's time goes");
    expect(link?.getAttribute('href')).toBe('#/statements?refresh=off');
  });

  it('says whether the history outlives the JobManager: when it was written, where, what was read back', async () => {
    const harness = await open();
    answer('api/v1/overview', {
      role: 'jobmanager',
      storesDir: {
        dir: 's3://bucket/ha/session/insight',
        writing: true,
        lastWriteAt: new Date(Date.now() - 20_000).toISOString(),
        lastFailure: null,
        bytesOnDisk: 3 * 1024 * 1024,
        restoredSamples: 12000,
      },
    });
    await settle();
    const text = harness.routeNativeElement?.textContent ?? '';
    expect(text).toContain('History across restarts');
    expect(text).toMatch(/written 2\d s ago/);
    expect(text).toContain('in s3://bucket/ha/session/insight · read back 12');
  });

  it('says when the history cannot be written and stays in memory only', async () => {
    const failing = await open();
    answer('api/v1/overview', {
      role: 'jobmanager',
      storesDir: { dir: 'file:///x', writing: false, lastWriteAt: null, lastFailure: 'AccessDeniedException: /x', bytesOnDisk: 0 },
    });
    await settle();
    const text = failing.routeNativeElement?.textContent ?? '';
    expect(text).toContain('not written');
    expect(text).toContain('in memory only while file:///x fails: AccessDeniedException: /x');
  });

  it('asks for enough checkpoints to cover the range', () => {
    expect(checkpointLimit(5 * 60_000)).toBe(60);
    expect(checkpointLimit(60_000)).toBe(50);
    expect(checkpointLimit(24 * 3_600_000)).toBe(1000);
  });

  describe("the charts' time axis", () => {
    const MIN = 60_000;

    /** The last start the chart drawing {@link seriesId} was given for its time axis. */
    function axisStart(echarts: TestingEcharts, seriesId: string): number | undefined {
      const chart = echarts.charts.find((c) =>
        c.calls.some((call) => (call.option['series'] as { id: string }[] | undefined)?.some((s) => s.id === seriesId)),
      );
      const starts = (chart?.calls ?? []).map((call) => (call.option['xAxis'] as { min?: number } | undefined)?.min);
      return starts.filter((m) => m != null).at(-1);
    }

    async function overviewOfHubUp(uptimeMs: number, echarts: TestingEcharts): Promise<number> {
      await open(echarts, 'range=1h&refresh=off');
      const now = Date.now();
      answer('api/v1/overview', { role: 'jobmanager', uptimeMs });
      answer('api/v1/client', clientFigures(false));
      answer('api/v1/jobs', { total: 0, matched: 0, jobs: [] });
      answer('api/v1/checkpoints', { jobs: [{ jobId: JOB_ID, jobName: 'wordcount', checkpoints: [checkpointRecord({ endTime: now - MIN })] }] });
      answer('api/v1/series', seriesResponse('insight_vertex_latency_ms', []));
      await settle();
      return now;
    }

    it("starts where the hub's data starts when the range reaches before the hub started", async () => {
      const echarts = new TestingEcharts();
      const now = await overviewOfHubUp(4 * MIN, echarts);
      const start = axisStart(echarts, `size:${JOB_ID}`);
      // The hub started 4 minutes ago: the axis starts a few seconds before that, not an hour back.
      expect(start).toBeGreaterThan(now - 4.5 * MIN);
      expect(start).toBeLessThan(now - 4 * MIN);
      expect(axisStart(echarts, `duration:${JOB_ID}`)).toBe(start);
    });

    it('starts at the range when the hub is older than it', async () => {
      const echarts = new TestingEcharts();
      const now = await overviewOfHubUp(2 * 60 * MIN, echarts);
      const start = axisStart(echarts, `size:${JOB_ID}`)!;
      expect(Math.abs(start - (now - 60 * MIN))).toBeLessThan(5_000);
    });
  });
});
