// End-to-end check of the "Insight" tab in Flink's own web dashboard, in headless Chromium (playwright-core, no
// browser download), against a running hub on a real cluster: the hub serves Flink's dashboard under /flink/ and
// adds the tab there.
//
//   INSIGHT_URL=http://127.0.0.1:9250 [SCREENSHOT_DIR=/tmp/shots] [CHROMIUM_PATH=/usr/bin/chromium] \
//     node e2e/flink-tab.e2e.mjs
//
// Checks: the hub names its dashboard path, Flink's dashboard renders there (its own menu and REST data), the tab
// script is loaded by a relative URL, the "Insight" entry appears in the dashboard's left menu beside Flink's entries
// and links to the panel relatively (../ from the dashboard, so a path prefix in front of the hub works), clicking it
// opens the panel, and the panel links back to the dashboard. Prints each check; exits 1 if any failed.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { checks, launchChromium } from './lib/e2e.mjs';

const base = (process.env.INSIGHT_URL ?? '').replace(/\/+$/, '');
if (!base) {
  console.error('set INSIGHT_URL to the hub, e.g. INSIGHT_URL=http://127.0.0.1:9250');
  process.exit(2);
}
const shots = process.env.SCREENSHOT_DIR;
const WAIT_MS = Number(process.env.E2E_WAIT_MS ?? 20_000);

const { check, finish } = checks();

/** A URL relative to the page's base: no scheme, no leading slash (which would leave a path prefix). */
function relative(url) {
  return typeof url === 'string' && url !== '' && !url.startsWith('/') && !/^[a-z][a-z0-9+.-]*:/i.test(url);
}

const overview = await (await fetch(`${base}/api/v1/overview`, { signal: AbortSignal.timeout(10_000) })).json();
const dashboardPath = overview.flinkDashboardPath;
check('the hub names the path of its copy of Flink\'s dashboard', typeof dashboardPath === 'string' && dashboardPath.startsWith('/'),
  JSON.stringify(dashboardPath));

const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  const dialogs = [];
  page.on('dialog', async (dialog) => {
    dialogs.push(dialog.message());
    await dialog.dismiss();
  });
  const pageErrors = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));

  await page.goto(`${base}${dashboardPath ?? '/flink/'}`, { waitUntil: 'domcontentloaded' });

  // Flink's dashboard itself: its sider menu, and the overview filled from Flink's REST API through the proxy.
  const menu = page.locator('nz-sider ul[nz-menu]');
  await menu.first().waitFor({ timeout: WAIT_MS }).catch(() => {});
  const flinkEntries = await page.locator('nz-sider ul[nz-menu] > li:not([data-insight-tab])').allInnerTexts();
  check('Flink\'s dashboard renders through the hub (its own menu entries)',
    flinkEntries.some((t) => /Overview/i.test(t)) && flinkEntries.some((t) => /Job Manager/i.test(t)),
    JSON.stringify(flinkEntries));
  const slots = await page.getByText('Available Task Slots').first().waitFor({ state: 'visible', timeout: WAIT_MS })
    .then(() => page.locator('.ant-table-tbody tr').first().waitFor({ state: 'visible', timeout: WAIT_MS }))
    .then(() => true, () => false);
  check('Flink\'s dashboard shows the cluster overview and job list from Flink\'s REST API', slots);

  // The Insight entry, in the menu (not the fallback button), looking like its siblings.
  const entry = page.locator('nz-sider ul[nz-menu] > li[data-insight-tab="menu"]');
  const appeared = await entry.waitFor({ timeout: WAIT_MS }).then(() => true, () => false);
  check('an "Insight" entry appears in the dashboard\'s left menu', appeared);
  if (appeared) {
    check('the entry is labelled Insight', (await entry.innerText()).trim() === 'Insight', await entry.innerText());
    const sameClass = await page.evaluate(() => {
      const ours = document.querySelector('li[data-insight-tab="menu"]');
      const theirs = ours?.parentElement?.querySelector('li:not([data-insight-tab])');
      return !!ours && !!theirs && theirs.classList.contains('ant-menu-item') && ours.classList.contains('ant-menu-item');
    });
    check('the entry is styled as Flink\'s own menu items (ant-menu-item)', sameClass);
    const fallback = await page.locator('#flink-insight-tab-button').count();
    check('no fallback button when the menu is found', fallback === 0, `${fallback} buttons`);
    // Relative, so that behind a reverse proxy with a path prefix it stays under the prefix.
    const link = await entry.locator('a').first()
      .evaluate((a) => ({ attr: a.getAttribute('href'), resolved: a.href }));
    check('the entry links to the panel by a relative URL that resolves to the hub\'s /',
      relative(link.attr) && link.resolved.split('#')[0] === `${base}/`, JSON.stringify(link));
  }
  const tabScripts = await page.evaluate(() => [...document.querySelectorAll('script[src*="insight-tab/tab.js"]')]
    .map((s) => s.getAttribute('src')));
  check('the dashboard loads the tab script by a relative URL', tabScripts.length === 1 && relative(tabScripts[0]),
    JSON.stringify(tabScripts));
  if (shots) {
    mkdirSync(shots, { recursive: true });
    await page.screenshot({ path: join(shots, 'flink-dashboard-tab.png') });
  }

  if (appeared) {
    await entry.click();
    const opened = await page.waitForURL((url) => !url.pathname.startsWith(dashboardPath ?? '/flink/'), { timeout: WAIT_MS })
      .then(() => true, () => false);
    const panel = opened && await page.locator('fi-root .fi-sider').first().waitFor({ timeout: WAIT_MS })
      .then(() => true, () => false);
    check('clicking the entry opens the Insight panel at the hub\'s /', !!panel && new URL(page.url()).pathname === '/',
      page.url());

    const back = page.locator('a.fi-menu-back');
    const backShown = await back.waitFor({ timeout: WAIT_MS }).then(() => true, () => false);
    check('the panel links back to Flink\'s dashboard', backShown);
    if (backShown) {
      await back.click();
      const returned = await page.locator('nz-sider ul[nz-menu] > li[data-insight-tab="menu"]')
        .waitFor({ timeout: WAIT_MS }).then(() => true, () => false);
      check('the link back returns to the dashboard, with the tab', returned, page.url());
    }
  }

  check('no dialog opened', dialogs.length === 0, dialogs.join(' | '));
  const ours = pageErrors.filter((m) => /insight/i.test(m));
  check('the tab script raised no page error', ours.length === 0, ours.join(' | '));
} finally {
  await browser.close();
}

finish();
