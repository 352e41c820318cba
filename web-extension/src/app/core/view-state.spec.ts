import { TestBed } from '@angular/core/testing';
import { Router } from '@angular/router';

import { panelTestProviders, settle } from '../../testing/testing-providers';
import { ViewState } from './view-state';

describe('ViewState', () => {
  beforeEach(() => TestBed.configureTestingModule({ providers: panelTestProviders() }));

  it('reads range and refresh from the URL', async () => {
    await TestBed.inject(Router).navigateByUrl('/jobs?range=1h&refresh=off');
    await settle();
    const view = TestBed.inject(ViewState);
    expect(view.params()).toEqual({ range: '1h', refresh: false });
    expect(view.refreshMs()).toBe(0);
    expect(view.window().fromParam).toBe('-1h');
  });

  it('writes changes to the URL and keeps other parameters', async () => {
    const router = TestBed.inject(Router);
    await router.navigateByUrl('/jobs?status=running&refresh=off');
    const view = TestBed.inject(ViewState);
    await view.setRange('5m');
    expect(router.url).toBe('/jobs?status=running&refresh=off&range=5m');
    await view.setRefresh(true);
    expect(router.url).toBe('/jobs?status=running&range=5m');
  });

  it('round-trips a custom range through the URL', async () => {
    const router = TestBed.inject(Router);
    await router.navigateByUrl('/overview');
    const view = TestBed.inject(ViewState);
    await view.setCustomRange(1_700_000_000_000, 1_700_000_600_000);
    await settle();
    expect(router.url).toContain('range=custom&from=1700000000000&to=1700000600000');
    expect(view.params()).toEqual({ range: 'custom', from: 1_700_000_000_000, to: 1_700_000_600_000, refresh: true });
  });

  it('refuses a custom range that ends before it starts', async () => {
    await TestBed.inject(Router).navigateByUrl('/overview');
    expect(await TestBed.inject(ViewState).setCustomRange(10, 5)).toBe(false);
  });
});
