// End-to-end check of the panel in headless Chromium (playwright-core, no browser download), against a running hub
// (the lead runs it on the real cluster) or the stub (`node e2e/stub-server.mjs`).
//
//   INSIGHT_URL=http://127.0.0.1:9250 [INSIGHT_DOWN_URL=http://127.0.0.1:1] [SCREENSHOT_DIR=/tmp/shots]
//   [INSIGHT_STOP_HOOK='kill <pid>']
//   [INSIGHT_JOB=<job id>] [INSIGHT_HOSTILE_STATEMENT='<img src=x onerror=alert(1)>'] [CHROMIUM_PATH=/usr/bin/chromium]
//   node e2e/panel.e2e.mjs
//
// Checks: every view renders charts with data points (read from the ECharts instances), a deep link to a job page
// (`#/jobs/<id>`: the view is in the URL's fragment) loads directly while the old path style `/jobs/<id>` is no longer
// the panel (404), no dialog ever opens (job and operator names are HTML injection attempts in the fixtures), the
// unreachable-hub state shows (also for real, when INSIGHT_STOP_HOOK stops the hub), and the URL keeps range and
// refresh. On the 1 h range, the charts start where the hub's data starts when the hub is younger than the range
// (and the toolbar says so), and span the range when it is older. The Statements view sorts as the hub does and opens
// a statement's queries as timelines (e2e/lib/statements-view.mjs); with INSIGHT_HOSTILE_STATEMENT, a statement
// holding that text must be there and show as text. Prints each check; exits 1 if any failed.
import { execSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { checks, launchChromium } from './lib/e2e.mjs';
import { checkStatementsView } from './lib/statements-view.mjs';

const base = (process.env.INSIGHT_URL ?? '').replace(/\/+$/, '');
if (!base) {
  console.error('set INSIGHT_URL to the hub, e.g. INSIGHT_URL=http://127.0.0.1:9250');
  process.exit(2);
}
const downUrl = process.env.INSIGHT_DOWN_URL?.replace(/\/+$/, '');
// A shell command that stops the hub (the integration test passes one that stops the JobManager it started).
const stopHook = process.env.INSIGHT_STOP_HOOK;
const shots = process.env.SCREENSHOT_DIR;
const WAIT_MS = Number(process.env.E2E_WAIT_MS ?? 20_000);

const { check, finish } = checks();

async function getJson(path) {
  const response = await fetch(`${base}${path}`, { signal: AbortSignal.timeout(10_000) });
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
  return response.json();
}

/** Per chart on the page: series count and data points, read from ECharts itself. */
function chartFigures(page) {
  return page.evaluate(() => {
    const api = globalThis.insightEcharts;
    return [...document.querySelectorAll('[_echarts_instance_]')].map((el) => {
      const chart = api?.getInstanceByDom(el);
      const series = chart?.getOption()?.series ?? [];
      const points = series.reduce(
        (n, s) => n + (Array.isArray(s.data) ? s.data.filter((d) => Array.isArray(d) && d[1] != null).length : 0), 0);
      const title = el.closest('.fi-card')?.querySelector('h2')?.textContent?.trim() ?? '';
      return { title, series: series.length, points };
    });
  });
}

/**
 * Waits until a chart has points — the one whose title starts with {@link title}, or any — (charts are drawn a
 * tick after the data arrives), and returns the figures of all charts.
 */
async function waitForCharts(page, title) {
  const deadline = Date.now() + WAIT_MS;
  let figures = [];
  while (Date.now() < deadline) {
    figures = await chartFigures(page);
    if (figures.some((f) => f.points > 0 && (!title || f.title.startsWith(title)))) break;
    await page.waitForTimeout(250);
  }
  return figures;
}

/** The first chart's time axis start, and the toolbar's note on the hub's data (null when it shows none). */
function axisStartAndNote(page) {
  return page.evaluate(() => {
    const el = document.querySelector('[_echarts_instance_]');
    const axis = el ? globalThis.insightEcharts?.getInstanceByDom(el)?.getOption()?.xAxis?.[0] : undefined;
    return { min: typeof axis?.min === 'number' ? axis.min : null,
      note: document.querySelector('fi-time-toolbar .fi-data-note')?.textContent?.trim() ?? null };
  });
}

/**
 * On the 1 h range: a hub younger than the range (the integration test's cluster is minutes old) has the charts start
 * where its data starts and the toolbar say so; a hub older than it has the charts span the range and no note.
 */
async function checkAxisStart(page) {
  const HOUR = 3_600_000;
  const { uptimeMs } = await getJson('/api/v1/overview');
  const hubStart = Date.now() - uptimeMs;
  const young = uptimeMs < HOUR - 5 * 60_000;
  const old = uptimeMs > HOUR + 30_000;
  if (!young && !old) {
    console.log(`     (hub up ${Math.round(uptimeMs / 60_000)} min, about the range: the axis start is not checked)`);
    return;
  }
  const deadline = Date.now() + 10_000;
  let seen = await axisStartAndNote(page);
  while (young && seen.note == null && Date.now() < deadline) {
    await page.waitForTimeout(250);
    seen = await axisStartAndNote(page);
  }
  const detail = `hub up ${Math.round(uptimeMs / 1000)} s, axis from ${seen.min != null ? new Date(seen.min).toISOString() : 'none'}, note ${JSON.stringify(seen.note)}`;
  if (young) {
    // 2 % margin, a bucket's start up to a step (12 s) before the hub's, and a minute at least.
    const ok = seen.min != null && seen.min >= Math.min(hubStart - 0.05 * uptimeMs - 30_000, Date.now() - 2 * 60_000);
    check("overview: on a hub younger than the range, the charts start where the hub's data starts", ok, detail);
    check('overview: the toolbar says since when there is data', /^data since .* the hub started .* ago$/.test(seen.note ?? ''), detail);
  } else {
    const ok = seen.min != null && Math.abs(seen.min - (Date.now() - HOUR)) < 60_000;
    check('overview: on a hub older than the range, the charts span the range', ok, detail);
    check('overview: the toolbar has no note on the data when it covers the range', seen.note == null, detail);
  }
}

async function noInjectedMarkup(page, where) {
  const injected = await page.evaluate(
    () => document.querySelectorAll('img[src="x"], .fi-content script, .fi-tooltip img').length,
  );
  check(`${where}: names render as text (no injected elements)`, injected === 0, `${injected} injected elements`);
}

async function screenshot(page, name) {
  if (shots) {
    mkdirSync(shots, { recursive: true });
    // The sider and the toolbar are fixed: grow the viewport to the page instead of stitching a full-page shot.
    const before = page.viewportSize();
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    await page.setViewportSize({ width: before.width, height: Math.min(Math.max(height, before.height), 4000) });
    await page.waitForTimeout(400); // charts resize
    await page.screenshot({ path: join(shots, `${name}.png`) });
    await page.setViewportSize(before);
    console.log(`     screenshot ${join(shots, `${name}.png`)}`);
  }
}

const browser = await launchChromium();
try {
  const context = await browser.newContext({ viewport: { width: 1440, height: 1000 } });
  context.setDefaultTimeout(WAIT_MS);
  const page = await context.newPage();
  page.on('dialog', async (dialog) => {
    check('no dialog opens', false, `a ${dialog.type()} dialog opened: ${dialog.message()}`);
    await dialog.dismiss().catch(() => {});
  });
  page.on('pageerror', (err) => check('no uncaught page error', false, err.message));

  // What the hub has, to know what each view must show.
  const [jobs, checkpoints, client] = await Promise.all([
    getJson('/api/v1/jobs'), getJson('/api/v1/checkpoints'), getJson('/api/v1/client')]);
  const cpJob = process.env.INSIGHT_JOB
    ?? checkpoints.jobs.find((j) => j.checkpoints.length > 0)?.jobId
    ?? jobs.jobs[0]?.jobId;

  // Overview
  await page.goto(`${base}/#/overview?range=1h`);
  await page.getByRole('heading', { name: 'Overview' }).waitFor();
  const hasCheckpoints = checkpoints.jobs.some((j) => j.checkpoints.length);
  const overviewCharts = await waitForCharts(page, hasCheckpoints ? 'Checkpoint async-phase size' : undefined);
  check('overview: charts with data points', overviewCharts.some((f) => f.points > 0), JSON.stringify(overviewCharts));
  if (hasCheckpoints) {
    const size = overviewCharts.find((f) => f.title.startsWith('Checkpoint async-phase size'));
    check('overview: checkpoint async-phase size chart has points', (size?.points ?? 0) > 0, JSON.stringify(size));
  }
  await checkAxisStart(page);
  // Hover across a chart so tooltips (HTML) render the series names.
  const canvas = page.locator('[_echarts_instance_]').first();
  if (await canvas.count()) {
    const box = await canvas.boundingBox();
    for (let x = 0.2; box && x <= 0.9; x += 0.1) {
      await page.mouse.move(box.x + box.width * x, box.y + box.height * 0.6);
      await page.waitForTimeout(60);
    }
  }
  await noInjectedMarkup(page, 'overview');
  await screenshot(page, 'overview');

  // URL state: the range and refresh survive clicks and navigation.
  await page.goto(`${base}/#/overview?range=5m&refresh=off`);
  await page.getByRole('radio', { name: '1h' }).click();
  await page.waitForURL(/range=1h/);
  check('url: range change is written to the URL', /refresh=off/.test(page.url()), page.url());
  await page.getByRole('link', { name: 'Jobs' }).click();
  await page.waitForURL(/#\/jobs/);
  check('url: navigation keeps range and refresh', /range=1h/.test(page.url()) && /refresh=off/.test(page.url()), page.url());

  // Jobs
  await page.getByRole('heading', { name: 'Jobs' }).waitFor();
  if (jobs.jobs.length) {
    await page.locator('table.fi-table tbody tr').first().waitFor();
    const rows = await page.locator('table.fi-table tbody tr').count();
    check('jobs: table lists jobs', rows > 0, `${rows} rows`);
    const hostile = jobs.jobs.find((j) => /[<>]/.test(j.jobName ?? ''));
    if (hostile) {
      const shown = await page.getByText(hostile.jobName, { exact: true }).count();
      check('jobs: a job named like HTML shows its name as text', shown > 0);
    }
  } else {
    check('jobs: empty state when the hub has seen no job', await page.locator('fi-state').count() > 0);
  }
  await noInjectedMarkup(page, 'jobs');
  await screenshot(page, 'jobs');

  // Job detail, loaded directly (deep link: the route is in the fragment, the page is the hub's /)
  if (cpJob) {
    const deep = await context.newPage();
    deep.on('dialog', async (d) => { check('no dialog opens', false, d.message()); await d.dismiss().catch(() => {}); });
    // The old path style is no longer the panel: the hub answers unknown paths with 404, not with index.html.
    const old = await deep.goto(`${base}/jobs/${cpJob}?range=1h`);
    const oldIsPanel = await deep.locator('fi-root').count();
    check('old path style: /jobs/<id> answers 404, not the panel', old?.status() === 404 && oldIsPanel === 0,
      `HTTP ${old?.status()}, ${oldIsPanel ? 'the panel' : 'no panel'}`);
    const response = await deep.goto(`${base}/#/jobs/${cpJob}?range=1h`);
    check('deep link: #/jobs/<id> answers the panel', response?.status() === 200, `HTTP ${response?.status()}`);
    await deep.locator('h1').first().waitFor();
    const opened = await deep.locator('.fi-page-head h1.fi-name').first().waitFor({ timeout: WAIT_MS })
      .then(() => true, () => false);
    check('deep link: #/jobs/<id> opens the job page', opened && new URL(deep.url()).hash.startsWith(`#/jobs/${cpJob}`),
      deep.url());
    const jobHasCheckpoints = checkpoints.jobs.some((j) => j.jobId === cpJob && j.checkpoints.length);
    const jobCharts = await waitForCharts(deep, jobHasCheckpoints ? 'Checkpointed size' : undefined);
    if (jobHasCheckpoints) {
      const size = jobCharts.find((f) => f.title.startsWith('Checkpointed size'));
      check('job: checkpointed vs full size chart has points', (size?.points ?? 0) > 0, JSON.stringify(jobCharts));
      await deep.locator('fi-checkpoint-table tbody tr').first().waitFor();
      const cpRows = await deep.locator('fi-checkpoint-table tbody tr').count();
      check('job: checkpoint table has rows', cpRows > 0, `${cpRows} rows`);
      await deep.locator('fi-checkpoint-table button.fi-expand').first().click();
      const opened = await deep.locator('tr.fi-subrow').first().waitFor({ timeout: 5_000 }).then(() => true, () => false);
      check('job: a checkpoint row opens to its tasks', opened);
    } else {
      check('job: page renders charts or empty states', jobCharts.length > 0 || await deep.locator('fi-state').count() > 0);
    }
    await noInjectedMarkup(deep, 'job');
    await screenshot(deep, 'job-checkpoints');
    await deep.close();
  } else {
    check('job: the hub knows at least one job to open', false, 'no job in /api/v1/jobs or /api/v1/checkpoints');
  }

  // Client
  await page.goto(`${base}/#/client?range=1h`);
  await page.getByRole('heading', { name: 'Client' }).waitFor();
  if (client.available) {
    const clientCharts = await waitForCharts(page);
    check('client: charts with data points', clientCharts.some((f) => f.points > 0), JSON.stringify(clientCharts));
  } else {
    await page.getByText('No client figures yet').waitFor();
    const text = await page.locator('fi-state').first().textContent();
    check('client: empty state says how to install the client', /interactive-client/.test(text ?? ''), text ?? '');
  }
  await screenshot(page, 'client');

  // Statements: sorted by the hub, a statement's queries as timelines, texts as text.
  await checkStatementsView({ page, base, getJson, check, screenshot, waitMs: WAIT_MS,
    hostile: process.env.INSIGHT_HOSTILE_STATEMENT || undefined });

  // Hub unreachable: every API call fails at the network level.
  const down = await context.newPage();
  down.on('dialog', async (d) => { check('no dialog opens', false, d.message()); await d.dismiss().catch(() => {}); });
  await down.route('**/api/v1/**', (route) => {
    if (downUrl) {
      const url = new URL(route.request().url());
      return route.continue({ url: `${downUrl}${url.pathname}${url.search}` });
    }
    return route.abort('connectionrefused');
  });
  await down.goto(`${base}/#/overview?refresh=off`);
  await down.locator('.fi-state-error').first().waitFor();
  const message = await down.locator('.fi-state-error').first().textContent();
  check('error: unreachable hub shows the error state', /unreachable/i.test(message ?? ''), message ?? '');
  await screenshot(down, 'hub-unreachable');
  await down.close();

  // The real thing, last: the hub process stops while the panel is open and refreshing.
  if (stopHook) {
    const live = await context.newPage();
    live.on('dialog', async (d) => { check('no dialog opens', false, d.message()); await d.dismiss().catch(() => {}); });
    await live.goto(`${base}/#/overview?range=1h`);
    await live.getByRole('heading', { name: 'Overview' }).waitFor();
    execSync(stopHook, { stdio: 'inherit', timeout: 60_000 });
    const shown = await live.locator('.fi-sider-error').first().waitFor({ timeout: 30_000 }).then(() => true, () => false);
    const text = shown ? await live.locator('.fi-sider-error').first().textContent() : '';
    check('error: stopping the hub shows "hub unreachable" on the next refresh', /unreachable/i.test(text ?? ''), text ?? 'no error shown');
    await live.close();
  }
} catch (err) {
  check('run completes', false, err instanceof Error ? err.stack ?? err.message : String(err));
} finally {
  await browser.close();
}

finish();
