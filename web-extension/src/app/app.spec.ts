import { TestBed } from '@angular/core/testing';
import { Router } from '@angular/router';

import { answer, failNetwork, panelTestProviders, settle } from '../testing/testing-providers';
import { App } from './app';

describe('App', () => {
  beforeEach(() => TestBed.configureTestingModule({ providers: panelTestProviders() }));

  it('links every page, keeping the view in the URL', async () => {
    const router = TestBed.inject(Router);
    const fixture = TestBed.createComponent(App);
    await router.navigateByUrl('/overview?range=1h&refresh=off');
    await settle();
    const links = [...fixture.nativeElement.querySelectorAll('.fi-menu a')] as HTMLAnchorElement[];
    expect(links.map((a) => a.textContent?.trim())).toEqual(['◔Overview', '☰Jobs', '⇄Client', '∑Statements', '⇆Compare']);
    expect(links[1].getAttribute('href')).toBe('#/jobs?range=1h&refresh=off');
  });

  it('links relatively, so the panel works behind a path prefix', async () => {
    const router = TestBed.inject(Router);
    const fixture = TestBed.createComponent(App);
    await router.navigateByUrl('/jobs?range=1h');
    await settle();
    answer('api/v1/overview', { role: 'jobmanager', flinkDashboardPath: '/flink/' });
    await settle();
    const hrefs = ([...fixture.nativeElement.querySelectorAll('a[href]')] as HTMLAnchorElement[])
      .map((a) => a.getAttribute('href') ?? '');
    expect(hrefs).toContain('#/overview?range=1h');
    expect(hrefs).toContain('flink/');
    expect(hrefs.filter((h) => h.startsWith('/') || /^[a-z]+:/i.test(h))).toEqual([]);
  });

  it('writes the chosen range and a paused refresh to the URL', async () => {
    const router = TestBed.inject(Router);
    const fixture = TestBed.createComponent(App);
    await router.navigateByUrl('/overview');
    await settle();
    const radio = [...fixture.nativeElement.querySelectorAll('.fi-radio')].find(
      (b) => (b as HTMLElement).textContent?.trim() === '6h',
    ) as HTMLButtonElement;
    radio.click();
    await settle();
    expect(router.url).toBe('/overview?range=6h');
    const pause = fixture.nativeElement.querySelector('button[aria-pressed]') as HTMLButtonElement;
    expect(pause.getAttribute('aria-pressed')).toBe('true');
    pause.click();
    await settle();
    expect(router.url).toBe('/overview?range=6h&refresh=off');
    expect(pause.getAttribute('aria-pressed')).toBe('false');
  });

  it('writes a custom range from its form to the URL in epoch milliseconds', async () => {
    const router = TestBed.inject(Router);
    const fixture = TestBed.createComponent(App);
    await router.navigateByUrl('/overview');
    await settle();
    const custom = [...fixture.nativeElement.querySelectorAll('.fi-radio')].find(
      (b) => (b as HTMLElement).textContent?.trim() === 'custom',
    ) as HTMLButtonElement;
    custom.click();
    await settle();
    const [from, to] = [...fixture.nativeElement.querySelectorAll('input[type="datetime-local"]')] as HTMLInputElement[];
    from.value = '2025-11-22T10:00';
    to.value = '2025-11-22T11:00';
    (fixture.nativeElement.querySelector('form button[type="submit"]') as HTMLButtonElement).click();
    await settle();
    const expected = `from=${new Date(2025, 10, 22, 10).getTime()}&to=${new Date(2025, 10, 22, 11).getTime()}`;
    expect(router.url).toContain(`range=custom&${expected}`);
  });

  it('warns when the hub is unreachable', async () => {
    const fixture = TestBed.createComponent(App);
    await settle();
    expect(failNetwork('api/v1/overview')).toBe(1);
    await settle();
    expect(fixture.nativeElement.querySelector('.fi-sider-error')?.textContent).toContain('hub unreachable');
  });

  it('shows the process it serves from', async () => {
    const fixture = TestBed.createComponent(App);
    await settle();
    answer('api/v1/overview', { role: 'jobmanager', flinkVersion: '2.2.0', uptimeMs: 3_660_000, version: '0.1.0' });
    await settle();
    expect(fixture.nativeElement.querySelector('.fi-sider-foot')?.textContent).toContain('jobmanager · Flink 2.2.0 · up 1 h 1 min');
    expect(fixture.nativeElement.querySelector('.fi-sider-error')).toBeNull();
  });

  describe('on a standby JobManager', () => {
    async function shellWith(overview: object): Promise<HTMLElement> {
      const router = TestBed.inject(Router);
      const fixture = TestBed.createComponent(App);
      await router.navigateByUrl('/overview?refresh=off');
      await settle();
      answer('api/v1/overview', { role: 'jobmanager', ...overview });
      await settle();
      return fixture.nativeElement as HTMLElement;
    }

    it('names the leading JobManager instead of showing the pages', async () => {
      const shell = await shellWith({ hub: { leading: false, leader: 'http://jm-1:8081' } });
      const notice = shell.querySelector('.fi-standby');
      expect(notice?.textContent).toContain('This JobManager is a standby');
      expect(notice?.querySelector('a')?.getAttribute('href')).toBe('http://jm-1:8081');
      expect(shell.querySelector('fi-overview-page')).toBeNull();
    });

    it('says when the leader is not known, and links nothing', async () => {
      const shell = await shellWith({ hub: { leading: false, leader: null } });
      expect(shell.querySelector('.fi-standby')?.textContent).toContain('not known here yet');
      expect(shell.querySelector('.fi-standby a')).toBeNull();
    });

    it('links no leader that is not an http(s) URL', async () => {
      const shell = await shellWith({ hub: { leading: false, leader: 'javascript:alert(1)' } });
      expect(shell.querySelector('.fi-standby a')).toBeNull();
    });

    it('shows the pages on the leader, and on a plugin that does not tell', async () => {
      expect((await shellWith({ hub: { leading: true, leader: 'http://jm-0:8081' } })).querySelector('.fi-standby')).toBeNull();
      expect((await shellWith({})).querySelector('.fi-standby')).toBeNull();
    });
  });

  describe("the toolbar's note on the hub's data", () => {
    async function toolbarWith(url: string, overview: object): Promise<HTMLElement> {
      const router = TestBed.inject(Router);
      const fixture = TestBed.createComponent(App);
      await router.navigateByUrl(url);
      await settle();
      answer('api/v1/overview', { role: 'jobmanager', ...overview });
      await settle();
      return fixture.nativeElement.querySelector('fi-time-toolbar') as HTMLElement;
    }

    it('says since when there is data when the range reaches before the hub started', async () => {
      const toolbar = await toolbarWith('/jobs?range=1h&refresh=off', { uptimeMs: 4 * 60_000 });
      const note = toolbar.querySelector('.fi-data-note');
      expect(note?.textContent).toMatch(/^data since \d\d:\d\d:\d\d · the hub started 4 min ago$/);
      expect(note?.getAttribute('title')).toContain('the charts start where its data starts');
    });

    it('says the data starts where the history read back from disk starts, before the hub started', async () => {
      const restoredFrom = new Date(Date.now() - 40 * 60_000).toISOString();
      const toolbar = await toolbarWith('/jobs?range=1h&refresh=off', {
        uptimeMs: 4 * 60_000,
        storesDir: { dir: 's3://b/ha/c/insight', writing: true, lastWriteAt: null, lastFailure: null, bytesOnDisk: 0, restoredFrom },
      });
      const note = toolbar.querySelector('.fi-data-note');
      expect(note?.textContent).toMatch(/^data since \d\d:\d\d:\d\d \(read back\) · the hub started 4 min ago$/);
      expect(note?.getAttribute('title')).toContain('read back');
    });

    it('says nothing when the data covers the range', async () => {
      const toolbar = await toolbarWith('/jobs?range=15m&refresh=off', { uptimeMs: 20 * 60_000 });
      expect(toolbar.querySelector('.fi-data-note')).toBeNull();
    });

    it('says a range before the hub started holds nothing', async () => {
      const to = Date.now() - 3_600_000;
      const toolbar = await toolbarWith(`/jobs?range=custom&from=${to - 600_000}&to=${to}&refresh=off`, { uptimeMs: 60_000 });
      expect(toolbar.querySelector('.fi-data-note')?.textContent).toContain('no data in this range: the hub\'s data starts ');
    });
  });
});
