import { TestBed } from '@angular/core/testing';
import { HttpTestingController } from '@angular/common/http/testing';
import { RouterTestingHarness } from '@angular/router/testing';

import { RefreshClock } from '../../core/refresh-clock';
import { clientFigures, clientFiguresWithHistory } from '../../../testing/payloads';
import { answer, failNetwork, panelTestProviders, settle } from '../../../testing/testing-providers';
import { ClientPage } from './client-page';

async function open() {
  TestBed.configureTestingModule({ providers: panelTestProviders() });
  const harness = await RouterTestingHarness.create();
  await harness.navigateByUrl('/client?refresh=off', ClientPage);
  await settle();
  return harness;
}

describe('ClientPage', () => {
  it('explains how to install the client until it reports', async () => {
    const harness = await open();
    answer('api/v1/client', clientFigures(false));
    await settle();
    const empty = harness.routeNativeElement?.querySelector('fi-state.fi-state-empty');
    expect(empty?.textContent).toContain('No client figures yet');
    expect(empty?.textContent).toContain('execution.target: remote-interactive');
    // Nothing else is asked for while there is no client.
    expect(answer('api/v1/series/names', {}).length).toBe(0);
    expect(answer('api/v1/series', {}).length).toBe(0);
  });

  it('shows pool, channel and retry figures and their history from one request', async () => {
    const harness = await open();
    const requests = answer('api/v1/client', clientFiguresWithHistory());
    expect(requests.length).toBe(1);
    expect(requests[0].request.params.get('from')).toBe('-15m');
    expect(requests[0].request.params.get('step')).toBeTruthy();
    // Besides it, only the hub's overview (when the hub started), which the panel asks once for all its views.
    expect(answer('api/v1/overview', { uptimeMs: 3_600_000 }).length).toBe(1);
    await settle();
    TestBed.inject(HttpTestingController).verify();
    const text = harness.routeNativeElement?.textContent ?? '';
    expect(text).toContain('90 %');
    expect(text).toContain('95 %');
    expect(text).toContain('0.5');
    expect(text).toContain('submit 40 ms');
    expect(text).toContain('end-to-end p50 260 ms');
    expect(text).toContain('Waiting for a place');
    expect(text).toContain('wait p50 12 ms · p99 480 ms');
    expect(text).toContain('REST requests per query');
    expect(text).toContain('to the JobManager · p99 11');
    expect(harness.routeNativeElement?.querySelectorAll('fi-time-chart').length).toBe(5);
    expect(text).not.toContain('No data in this time range yet.');
  });

  it('keeps the figures and charts beside the error when a refresh fails', async () => {
    const harness = await open();
    answer('api/v1/client', clientFiguresWithHistory());
    await settle();
    TestBed.inject(RefreshClock).refreshNow();
    await settle();
    expect(failNetwork('api/v1/client')).toBe(1);
    await settle();
    const page = harness.routeNativeElement as HTMLElement;
    expect(page.querySelector('fi-state.fi-state-error')?.textContent).toContain('Hub unreachable');
    expect(page.querySelectorAll('fi-time-chart').length).toBe(5);
    expect(page.textContent).toContain('90 %');
  });

  it('shows the error and nothing more when the first request fails', async () => {
    const harness = await open();
    expect(failNetwork('api/v1/client')).toBe(1);
    await settle();
    const page = harness.routeNativeElement as HTMLElement;
    expect(page.querySelector('fi-state.fi-state-error')?.textContent).toContain('Hub unreachable');
    expect(page.querySelectorAll('fi-time-chart').length).toBe(0);
    expect(page.textContent).not.toContain('Not available');
  });
});
