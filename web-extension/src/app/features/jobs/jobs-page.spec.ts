import { TestBed } from '@angular/core/testing';
import { RouterTestingHarness } from '@angular/router/testing';

import { HOSTILE_NAME, JOB_ID, jobRecord, overviewOnFlink } from '../../../testing/payloads';
import { answer, failNetwork, panelTestProviders, settle } from '../../../testing/testing-providers';
import { JobRecord } from '../../api/jobs/jobs.model';
import { JobsPage } from './jobs-page';

async function open(url: string, jobs: JobRecord[], flinkWebUrl?: string, overview: object = {}): Promise<HTMLElement> {
  const harness = await RouterTestingHarness.create();
  await harness.navigateByUrl(url, JobsPage);
  await settle();
  answer('api/v1/jobs', { total: jobs.length, matched: jobs.length, jobs });
  answer('api/v1/overview', { role: 'jobmanager', flinkWebUrl, ...overview });
  await settle();
  return harness.routeNativeElement as HTMLElement;
}

describe('JobsPage', () => {
  beforeEach(() => TestBed.configureTestingModule({ providers: panelTestProviders() }));

  it('notes that a Flink before 2.2 reports no job events, and where the list comes from instead', async () => {
    const page = await open('/jobs?refresh=off', [jobRecord()], undefined, overviewOnFlink('1.20.3'));
    const note = page.querySelector('fi-capability-note:not([hidden])');
    expect(note?.textContent).toContain('Flink 2.2 or newer');
    expect(note?.textContent).toContain('events.reporter.insight.factory.class');
    expect(note?.textContent).toContain('1.20.3');

    TestBed.resetTestingModule();
    TestBed.configureTestingModule({ providers: panelTestProviders() });
    const newer = await open('/jobs?refresh=off', [jobRecord()], undefined, overviewOnFlink('2.2.0'));
    expect(newer.querySelector('fi-capability-note:not([hidden])')).toBeNull();
  });

  it('renders a job named like HTML as text', async () => {
    const page = await open('/jobs?refresh=off', [jobRecord({ jobName: HOSTILE_NAME })]);
    const link = page.querySelector('td.fi-name a') as HTMLAnchorElement;
    expect(link.textContent?.trim()).toBe(HOSTILE_NAME);
    expect(page.querySelector('img')).toBeNull();
    expect(link.getAttribute('href')).toBe(`#/jobs/${JOB_ID}?refresh=off`);
  });

  it('lists status, latency and the last checkpoint', async () => {
    const page = await open('/jobs', [
      jobRecord({
        status: 'FINISHED',
        terminal: true,
        clusterLatencyMs: 245,
        lastCheckpoint: { id: 7, status: 'COMPLETED', type: 'Checkpoint', endTime: 1, durationMs: 120,
          checkpointedSize: 3 * 1024 * 1024, fullSize: null },
      }),
    ]);
    const row = page.querySelector('tbody tr') as HTMLElement;
    expect(row.textContent).toContain('FINISHED');
    expect(row.textContent).toContain('245 ms');
    expect(row.textContent).toContain('#7');
    expect(row.textContent).toContain('3 MiB');
  });

  it('filters by the status in the URL', async () => {
    const page = await open('/jobs?status=finished', [
      jobRecord({ jobId: 'a'.repeat(32), jobName: 'streaming', status: 'RUNNING' }),
      jobRecord({ jobId: 'b'.repeat(32), jobName: 'query', status: 'FINISHED', terminal: true }),
    ]);
    const names = [...page.querySelectorAll('td.fi-name a')].map((a) => a.textContent?.trim());
    expect(names).toEqual(['query']);
  });

  it('lists running jobs first, then newest first', async () => {
    const t = Date.now();
    const page = await open('/jobs', [
      jobRecord({ jobId: 'c'.repeat(32), jobName: 'query new', status: 'FINISHED', terminal: true, createdAt: t }),
      jobRecord({ jobId: 'b'.repeat(32), jobName: 'query old', status: 'FINISHED', terminal: true, createdAt: t - 9 }),
      jobRecord({ jobId: 'a'.repeat(32), jobName: 'streaming', status: 'RUNNING', createdAt: t - 99 }),
    ]);
    const names = [...page.querySelectorAll('td.fi-name a')].map((a) => a.textContent?.trim());
    expect(names).toEqual(['streaming', 'query new', 'query old']);
  });

  it('shows 25 jobs a page and pages through the rest', async () => {
    const jobs = Array.from({ length: 30 }, (_, i) =>
      jobRecord({ jobId: i.toString(16).padStart(32, '0'), jobName: `q${i}`, createdAt: i }),
    );
    const page = await open('/jobs', jobs);
    expect(page.querySelectorAll('tbody tr').length).toBe(25);
    const next = [...page.querySelectorAll('.fi-pager button')].at(-1) as HTMLButtonElement;
    next.click();
    await settle();
    expect(page.querySelectorAll('tbody tr').length).toBe(5);
    expect(page.querySelector('.fi-pager')?.textContent).toContain('page 2 of 2 · 30 jobs');
  });

  it("links to Flink's dashboard only when the hub knows it", async () => {
    const withUrl = await open('/jobs', [jobRecord()], 'http://127.0.0.1:8081');
    expect(withUrl.querySelector('a[target="_blank"]')?.getAttribute('href')).toBe(
      `http://127.0.0.1:8081/#/job/running/${JOB_ID}/overview`,
    );
  });

  it('hides the dashboard link without a URL', async () => {
    const page = await open('/jobs', [jobRecord()]);
    expect(page.querySelector('a[target="_blank"]')).toBeNull();
  });

  it('shows the empty state when the hub has seen no job', async () => {
    const page = await open('/jobs', []);
    expect(page.querySelector('fi-state.fi-state-empty')?.textContent).toContain('No jobs');
    expect(page.querySelector('table')).toBeNull();
  });

  it('shows the error state when the hub is unreachable', async () => {
    const harness = await RouterTestingHarness.create();
    await harness.navigateByUrl('/jobs', JobsPage);
    await settle();
    expect(failNetwork('api/v1/jobs')).toBe(1);
    await settle();
    const error = harness.routeNativeElement?.querySelector('fi-state.fi-state-error');
    expect(error?.textContent).toContain('Hub unreachable');
    expect(error?.getAttribute('role')).toBe('alert');
    expect(harness.routeNativeElement?.textContent).not.toContain('No jobs seen yet.');
  });
});
