import { HttpTestingController } from '@angular/common/http/testing';
import { TestBed } from '@angular/core/testing';
import { RouterTestingHarness } from '@angular/router/testing';

import { CompareResponse, JobSettings } from '../../api/compare/compare.model';
import { HOSTILE_NAME, jobRecord } from '../../../testing/payloads';
import { answer, panelTestProviders, settle } from '../../../testing/testing-providers';
import { ComparePage } from './compare-page';

const A = 'a'.repeat(32);
const B = 'b'.repeat(32);

const SETTINGS: JobSettings = {
  checkpointing: true, stateBackend: 'EmbeddedRocksDBStateBackend', checkpointStorage: null, incremental: true,
  incrementalSource: 'observed', changelog: false, materializationIntervalMs: 600_000, changelogStorage: null,
  checkpointIntervalMs: 3_000, checkpointMode: 'exactly_once', unaligned: false, parallelism: 1,
};

const RESPONSE: CompareResponse = {
  mode: 'jobs',
  differences: ['changelog'],
  columns: [
    { label: `${HOSTILE_NAME} (aaaaaaa)`, jobId: A, jobName: HOSTILE_NAME, status: 'RUNNING', from: 0, to: 60_000,
      settings: SETTINGS, checkpoints: [{ id: 1, triggerTime: 3_000, sinceStartMs: 3_000, durationMs: 80, checkpointedSize: 1024, fullSize: 4096 }] },
    { label: 'changelog (bbbbbbb)', jobId: B, jobName: 'changelog', status: 'RUNNING', from: 0, to: 60_000,
      settings: { ...SETTINGS, changelog: true, materializationIntervalMs: 60_000 },
      checkpoints: [{ id: 1, triggerTime: 3_000, sinceStartMs: 3_000, durationMs: 40, checkpointedSize: 512, fullSize: 4096 }] },
  ],
  rows: [{ key: 'duration_p50', label: 'Checkpoint duration P50', unit: 'ms', cells: [
    { value: 80, samples: 1, changePercent: null }, { value: 40, samples: 1, changePercent: -50 }] }],
};

async function open(url: string) {
  TestBed.configureTestingModule({ providers: panelTestProviders() });
  const harness = await RouterTestingHarness.create();
  await harness.navigateByUrl(url, ComparePage);
  await settle();
  return harness;
}

describe('ComparePage', () => {
  it('asks the API for the selection in the URL and shows its columns and cells', async () => {
    const harness = await open(`/compare?jobs=${A},${B}&refresh=off`);
    answer('api/v1/jobs', { total: 0, matched: 0, jobs: [] });
    const requests = answer('api/v1/compare', RESPONSE);
    await settle();
    expect(requests[0].request.params.get('jobs')).toBe(`${A},${B}`);
    const el = harness.routeNativeElement as HTMLElement;
    const heads = [...el.querySelectorAll('th.fi-compare-column')];
    expect(heads.map((h) => h.getAttribute('data-job'))).toEqual([A, B]);
    expect(heads[1].querySelector('.fi-differs')?.textContent).toContain('changelog: on');
    const cells = [...el.querySelectorAll('tr[data-row="duration_p50"] td[data-column]')];
    expect(cells.map((c) => c.getAttribute('data-value'))).toEqual(['80', '40']);
    expect(cells[1].textContent).toContain('−50 %');
    expect(el.querySelector('img[src="x"]')).toBeNull();
    expect(el.textContent).toContain(HOSTILE_NAME);
  });

  it('says what the URL needs for a malformed selection and asks nothing', async () => {
    const harness = await open(`/compare?jobs=${A}&refresh=off`);
    answer('api/v1/jobs', { total: 0, matched: 0, jobs: [] });
    await settle();
    expect(TestBed.inject(HttpTestingController).match((r) => r.url === 'api/v1/compare')).toHaveLength(0);
    expect(harness.routeNativeElement?.textContent).toContain('This selection cannot be compared');
  });

  it('puts the picked jobs into the URL', async () => {
    const harness = await open('/compare?refresh=off');
    answer('api/v1/jobs', { total: 2, matched: 2, jobs: [jobRecord({ jobId: A }), jobRecord({ jobId: B })] });
    await settle();
    const el = harness.routeNativeElement as HTMLElement;
    for (const id of [A, B]) {
      (el.querySelector(`input[data-job="${id}"]`) as HTMLInputElement).click();
    }
    await settle();
    (el.querySelector('[data-action="compare"]') as HTMLButtonElement).click();
    await settle();
    expect(TestBed.inject(HttpTestingController).match((r) => r.url === 'api/v1/compare')[0].request.params.get('jobs'))
      .toBe(`${A},${B}`);
  });
});
