// End-to-end check of the compare view in headless Chromium against a running hub with at least two jobs that
// checkpoint (the integration test and the screenshot script run it on the demo's RocksDB/changelog pair).
//
//   INSIGHT_URL=http://127.0.0.1:9250 COMPARE_JOBS=<id>,<id> [SCREENSHOT_DIR=/tmp/shots] node e2e/compare.e2e.mjs
//
// Checks: the view renders one column per job, headed by the settings that differ; every table cell (value,
// samples, change) is the number of the /api/v1/compare answer the page received for the same selection, and the
// API asked directly has the same rows and columns; the three charts have points for every job; the CSV export
// downloads the same numbers; the URL reopens the same view; no dialog opens. Prints each check; exits 1 on failure.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checks, launchChromium } from './lib/e2e.mjs';

const base = (process.env.INSIGHT_URL ?? '').replace(/\/+$/, '');
const jobs = (process.env.COMPARE_JOBS ?? '').split(',').filter(Boolean);
if (!base || jobs.length < 2) {
  console.error('set INSIGHT_URL to the hub and COMPARE_JOBS to 2-4 job ids, e.g. COMPARE_JOBS=<id>,<id>');
  process.exit(2);
}
const shots = process.env.SCREENSHOT_DIR;
const WAIT_MS = Number(process.env.E2E_WAIT_MS ?? 20_000);
const { check, finish } = checks();

/** A number as the API sent it, or null: what a table cell's data attribute must equal. */
const num = (v) => (v == null ? null : Number(v));

/** The table as the page shows it: per column its job and differing settings, per row its cells' raw figures. */
function readTable(page) {
  return page.evaluate(() => ({
    columns: [...document.querySelectorAll('th.fi-compare-column')].map((th) => ({
      jobId: th.getAttribute('data-job'),
      differing: [...th.querySelectorAll('.fi-differs')].map((li) => li.textContent.trim()),
    })),
    rows: [...document.querySelectorAll('tr[data-row]')].map((tr) => ({
      key: tr.getAttribute('data-row'),
      cells: [...tr.querySelectorAll('td[data-column]')].map((td) => ({
        value: td.getAttribute('data-value'),
        samples: td.getAttribute('data-samples'),
        change: td.getAttribute('data-change'),
        text: td.textContent.trim(),
      })),
    })),
  }));
}

/** Differences between the table and an API answer, as readable lines (empty when every cell matches). */
function mismatches(table, answer) {
  const out = [];
  if (table.columns.map((c) => c.jobId).join() !== answer.columns.map((c) => c.jobId).join()) {
    out.push(`columns ${table.columns.map((c) => c.jobId)} vs ${answer.columns.map((c) => c.jobId)}`);
  }
  if (table.rows.length !== answer.rows.length) out.push(`${table.rows.length} rows vs ${answer.rows.length}`);
  answer.rows.forEach((row, i) => {
    const shown = table.rows[i];
    if (!shown || shown.key !== row.key) {
      out.push(`row ${i}: ${shown?.key} vs ${row.key}`);
      return;
    }
    row.cells.forEach((cell, j) => {
      const s = shown.cells[j];
      const same = s && num(s.value) === num(cell.value) && Number(s.samples) === cell.samples &&
        num(s.change) === num(cell.changePercent) && s.text.length > 0;
      if (!same) out.push(`${row.key}[${j}]: shown ${JSON.stringify(s)} vs ${JSON.stringify(cell)}`);
    });
  });
  return out;
}

function parseCsv(text) {
  const rows = [];
  let row = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { field += '"'; i++; } else if (c === '"') { quoted = false; } else { field += c; }
    } else if (c === '"') { quoted = true; } else if (c === ',') { row.push(field); field = ''; } else if (c === '\n') {
      row.push(field.replace(/\r$/, '')); rows.push(row); row = []; field = '';
    } else { field += c; }
  }
  return rows;
}

async function waitForChartPoints(page) {
  const deadline = Date.now() + WAIT_MS;
  let charts = [];
  while (Date.now() < deadline) {
    charts = await page.evaluate(() => [...document.querySelectorAll('fi-compare-chart')].map((el) => {
      const instance = globalThis.insightEcharts?.getInstanceByDom(el.querySelector('[_echarts_instance_]'));
      const series = instance?.getOption()?.series ?? [];
      return {
        chart: el.getAttribute('data-chart'),
        perSeries: series.map((s) => (s.data ?? []).filter((d) => Array.isArray(d) && d[1] != null).length),
      };
    }));
    if (charts.length === 3 && charts.every((c) => c.perSeries.length > 0 && c.perSeries.every((n) => n > 0))) break;
    await page.waitForTimeout(250);
  }
  return charts;
}

const selection = `jobs=${jobs.join(',')}`;
const browser = await launchChromium();
try {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, acceptDownloads: true });
  const page = await context.newPage();
  page.on('dialog', (d) => { check('no dialog opens', false, d.message()); void d.dismiss(); });
  let compareRequests = 0;
  page.on('request', (r) => { if (r.url().includes('/api/v1/compare?')) compareRequests++; });

  // refresh=off: the table stays on the answer the page received, so it can be checked cell by cell.
  const url = `${base}/#/compare?${selection}&refresh=off`;
  // The answer the page gets, taken on its way (reading a response's body after the fact races the router's own
  // navigation, which discards it).
  let received;
  await page.route('**/api/v1/compare?**', async (route) => {
    const response = await route.fetch();
    const text = await response.text();
    received ??= { url: route.request().url(), body: JSON.parse(text) };
    await route.fulfill({ response, body: text });
  });
  await page.goto(url);
  await page.waitForSelector('tr[data-row]', { timeout: WAIT_MS });
  const table = await readTable(page);
  check('the page asked /api/v1/compare for the selection in its URL',
    received && new URL(received.url).searchParams.get('jobs') === jobs.join(','), received?.url);
  check(`one column per job (${jobs.length})`, table.columns.length === jobs.length &&
    table.columns.every((c, i) => c.jobId === jobs[i]), JSON.stringify(table.columns));
  const answer = received.body;
  check('columns are headed by the settings that differ', answer.differences.length === 0 ||
    table.columns.every((c) => c.differing.length === answer.differences.length), JSON.stringify(table.columns));
  check('the page asked once (no refresh changed the table meanwhile)', compareRequests === 1, `${compareRequests}`);
  const diff = mismatches(table, answer);
  check(`every table cell matches the API (${answer.rows.length} rows × ${answer.columns.length} columns)`,
    diff.length === 0, diff.slice(0, 5).join('; '));

  const direct = await (await fetch(`${base}/api/v1/compare?${selection}`)).json();
  check('the API asked directly has the same columns and rows',
    direct.columns.map((c) => c.jobId).join() === answer.columns.map((c) => c.jobId).join() &&
    direct.rows.map((r) => `${r.key}:${r.unit}`).join() === answer.rows.map((r) => `${r.key}:${r.unit}`).join() &&
    JSON.stringify(direct.differences) === JSON.stringify(answer.differences));

  const charts = await waitForChartPoints(page);
  for (const name of ['async-size', 'duration', 'full-size']) {
    const c = charts.find((x) => x.chart === name);
    check(`chart ${name} has points for every job`, c && c.perSeries.length === jobs.length &&
      c.perSeries.every((n) => n > 0), JSON.stringify(c));
  }

  const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-action="export-csv"]')]);
  const csv = parseCsv(readFileSync(await download.path(), 'utf8'));
  const csvDiff = [];
  answer.rows.forEach((row, i) => {
    const line = csv[i + 1] ?? [];
    if (line[0] !== row.label || line[1] !== row.unit) csvDiff.push(`row ${i}: ${line.slice(0, 2)}`);
    row.cells.forEach((cell, j) => {
      const [v, n, ch] = line.slice(2 + 3 * j, 5 + 3 * j);
      if (num(v === '' ? null : v) !== num(cell.value) || Number(n) !== cell.samples ||
        num(ch === '' ? null : ch) !== num(cell.changePercent)) {
        csvDiff.push(`${row.key}[${j}]: ${[v, n, ch]} vs ${JSON.stringify(cell)}`);
      }
    });
  });
  check(`the CSV export has the same numbers (${csv.length - 1} rows)`,
    csv.length - 1 === answer.rows.length && csvDiff.length === 0, csvDiff.slice(0, 5).join('; '));
  check('the CSV is named for what it is', download.suggestedFilename().endsWith('.csv'), download.suggestedFilename());

  if (shots) {
    mkdirSync(shots, { recursive: true });
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    await page.setViewportSize({ width: 1440, height: Math.min(Math.max(height, 900), 4000) });
    await page.waitForTimeout(500); // the charts redraw at the new size
    await page.screenshot({ path: join(shots, 'compare.png') });
    console.log(`     screenshot ${join(shots, 'compare.png')}`);
  }

  // The URL alone reopens the same view.
  const again = await context.newPage();
  await again.goto(page.url());
  await again.waitForSelector('tr[data-row]', { timeout: WAIT_MS });
  const reopened = await readTable(again);
  check('the URL reopens the same view', page.url().includes(selection) &&
    reopened.columns.map((c) => c.jobId).join() === table.columns.map((c) => c.jobId).join() &&
    reopened.rows.map((r) => r.key).join() === table.rows.map((r) => r.key).join(), page.url());

  // A malformed selection says what the URL needs instead of asking the hub.
  await again.goto(`${base}/#/compare?jobs=${jobs[0]}`);
  const note = await again.waitForSelector('.fi-state-title', { timeout: WAIT_MS });
  check('a malformed selection shows what the URL needs', (await note.textContent()).includes('cannot be compared'));
} finally {
  await browser.close();
}
finish();
