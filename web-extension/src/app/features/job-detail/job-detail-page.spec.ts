import { TestBed } from '@angular/core/testing';
import { RouterTestingHarness } from '@angular/router/testing';

import { checkpointRecord, HOSTILE_NAME, JOB_ID, jobRecord, overviewOnFlink, phases, seriesResponse } from '../../../testing/payloads';
import { answer, panelTestProviders, settle } from '../../../testing/testing-providers';
import { TestingEcharts } from '../../../testing/testing-echarts';
import { CheckpointRecord } from '../../api/checkpoints/checkpoints.model';
import { JobDetailPage } from './job-detail-page';

const now = Date.now();

async function open(checkpoints: CheckpointRecord[], echarts = new TestingEcharts(), overview: object = {}) {
  TestBed.configureTestingModule({ providers: panelTestProviders(echarts) });
  const harness = await RouterTestingHarness.create();
  await harness.navigateByUrl(`/jobs/${JOB_ID}?range=1h&refresh=off`, JobDetailPage);
  await settle();
  answer('api/v1/jobs', {
    total: 1,
    matched: 1,
    jobs: [jobRecord({ jobName: HOSTILE_NAME, vertices: { v1: '<script>alert("op")</script>' } })],
  });
  answer('api/v1/checkpoints', { jobs: [{ jobId: JOB_ID, jobName: HOSTILE_NAME, checkpoints }] });
  answer('api/v1/overview', overview);
  answer('api/v1/series', seriesResponse('x', []));
  await settle();
  return harness.routeNativeElement as HTMLElement;
}

/** 100 completed checkpoints in the last hour with durations 1..100 ms, newest first. */
function hundredCheckpoints(): CheckpointRecord[] {
  return Array.from({ length: 100 }, (_, i) =>
    checkpointRecord({ checkpointId: i + 1, durationMs: i + 1, endTime: now - (100 - i) * 30_000 }),
  ).reverse();
}

function notes(page: HTMLElement): string[] {
  return [...page.querySelectorAll('fi-capability-note:not([hidden])')].map((n) => n.textContent?.replace(/\s+/g, ' ') ?? '');
}

describe('JobDetailPage', () => {
  it('says which Flink and option would give the figures a Flink 1.20 cluster lacks', async () => {
    const page = await open([checkpointRecord({ endTime: now - 1000 })], new TestingEcharts(), overviewOnFlink('1.20.3'));
    const shown = notes(page);
    expect(shown).toHaveLength(3);
    expect(shown.find((n) => n.includes('Sync and async phase'))).toContain('Flink 2.2 or newer');
    expect(shown.find((n) => n.includes('Sync and async phase'))).toContain('this cluster runs Flink 1.20.3');
    expect(shown.find((n) => n.includes('Per-task'))).toContain('traces.checkpoint.span-detail-level');
    expect(shown.find((n) => n.includes('Job status events'))).toContain("filled from Flink's REST API");
  });

  it('shows no notes on a Flink that gives everything', async () => {
    const page = await open([checkpointRecord({ endTime: now - 1000 })], new TestingEcharts(), overviewOnFlink('2.2.0'));
    expect(notes(page)).toEqual([]);
  });

  it('reports checkpoint duration percentiles over the range', async () => {
    const page = await open([
      ...hundredCheckpoints(),
      checkpointRecord({ checkpointId: 0, durationMs: 99_999, endTime: now - 2 * 3_600_000 }),
    ]);
    const stats = [...page.querySelectorAll('fi-stat')].map((s) => s.textContent ?? '');
    expect(stats[0]).toContain('P50');
    expect(stats[0]).toContain('50 ms');
    expect(stats[0]).toContain('100 completed');
    expect(stats[1]).toContain('99 ms');
    // The checkpoint before the range does not count: P99.9 is the largest in range.
    expect(stats[2]).toContain('100 ms');
  });

  it('renders job and operator names as text', async () => {
    const page = await open([
      checkpointRecord({
        endTime: now - 1000,
        tasks: [{ vertexId: 'v1', vertexName: null, startTime: 0, endTime: 1, max: phases(), sum: phases(), subtasks: [] }],
      }),
    ]);
    expect(page.querySelector('h1')?.textContent).toBe(HOSTILE_NAME);
    (page.querySelector('fi-checkpoint-table button.fi-expand') as HTMLButtonElement).click();
    await settle();
    const task = page.querySelector('tr.fi-subrow td.fi-name');
    expect(task?.textContent).toBe('<script>alert("op")</script>');
    expect(page.querySelector('img, tr.fi-subrow script')).toBeNull();
  });

  it('charts the checkpointed size against the full size', async () => {
    const echarts = new TestingEcharts();
    await open([checkpointRecord({ endTime: now - 1000, checkpointedSize: 1, fullSize: 2 })], echarts);
    await settle();
    const sizeChart = echarts.charts.find((c) =>
      c.calls.some((call) => (call.option['series'] as { id: string }[] | undefined)?.some((s) => s.id === 'checkpointed')),
    );
    expect(sizeChart).toBeDefined();
    const series = sizeChart!.calls.find((c) => c.notMerge)!.option['series'] as { id: string; data: unknown[] }[];
    expect(series.map((s) => [s.id, s.data.length])).toEqual([['checkpointed', 1], ['full', 1]]);
  });

  it('shows the checkpoints 20 to a page', async () => {
    const page = await open(hundredCheckpoints());
    expect(page.querySelectorAll('fi-checkpoint-table tbody > tr').length).toBe(20);
    expect(page.querySelector('.fi-pager')?.textContent).toContain('page 1 of 5');
  });

  it('says so when there are no checkpoints in the range', async () => {
    const page = await open([]);
    expect(page.textContent).toContain('No checkpoints of this job in this time range yet.');
    expect(page.querySelector('fi-checkpoint-table')).toBeNull();
  });

  it('rejects a malformed job id without asking the hub', async () => {
    TestBed.configureTestingModule({ providers: panelTestProviders() });
    const harness = await RouterTestingHarness.create();
    await harness.navigateByUrl('/jobs/not-a-job', JobDetailPage);
    await settle();
    expect(answer('api/v1/checkpoints', {}).length).toBe(0);
    expect(harness.routeNativeElement?.textContent).toContain('Not a job id');
  });
});
