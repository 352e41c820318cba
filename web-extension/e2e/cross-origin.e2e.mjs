// End-to-end check of the hub's port against other sites and behind a reverse proxy with a path prefix, in headless
// Chromium (playwright-core, no browser download), against a running hub on a real cluster with a RUNNING streaming
// job.
//
//   INSIGHT_URL=http://127.0.0.1:9250 FLINK_REST_URL=http://127.0.0.1:8081 JOB_ID=<running job id> \
//     [SCREENSHOT_DIR=/tmp/shots] [CHROMIUM_PATH=/usr/bin/chromium] node e2e/cross-origin.e2e.mjs
//
// 1. Other sites: a page served from another origin (127.0.0.1 on another port: same-site, cross-origin; and, when
//    it can be bound, 127.0.0.2: cross-site) tries, against the hub, to read Flink's REST API and the hub's own API
//    with fetch, and to cancel or stop the job: GETs of the legacy yarn-cancel/yarn-stop endpoints in several
//    spellings (fetch in cors and no-cors mode, images, frames), PATCH and POST requests, and a hidden form POST.
//    Checks: no attempt could read a response body, and the job is still RUNNING afterwards (asked of Flink's own
//    REST API from Node, not through the hub).
// 2. A path prefix: a reverse proxy serving the hub under /insight/ (prefix stripped, like a location block of an
//    ingress). Checks: the panel renders its overview with data at /insight/, its menu keeps the URL under
//    /insight/, Flink's dashboard renders at /insight/flink/ with the Insight entry, whose link resolves to
//    /insight/; and no request the browser makes through the proxy fails (>= 400) or leaves /insight/.
// Prints each check; exits 1 if any failed.
import { mkdirSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { checks, launchChromium } from './lib/e2e.mjs';

const base = (process.env.INSIGHT_URL ?? '').replace(/\/+$/, '');
const flinkRest = (process.env.FLINK_REST_URL ?? '').replace(/\/+$/, '');
if (!base || !flinkRest) {
  console.error('set INSIGHT_URL to the hub and FLINK_REST_URL to Flink\'s REST API, e.g.\n'
    + '  INSIGHT_URL=http://127.0.0.1:9250 FLINK_REST_URL=http://127.0.0.1:8081 JOB_ID=<running job>');
  process.exit(2);
}
const shots = process.env.SCREENSHOT_DIR;
const WAIT_MS = Number(process.env.E2E_WAIT_MS ?? 20_000);
const PREFIX = '/insight';

const { check, finish } = checks();
function info(text) {
  console.log(`     ${text}`);
}

async function flinkJson(path) {
  const response = await fetch(`${flinkRest}${path}`, { signal: AbortSignal.timeout(10_000) });
  if (!response.ok) throw new Error(`Flink REST ${path}: HTTP ${response.status}`);
  return response.json();
}

async function jobState(jobId) {
  return (await flinkJson(`/jobs/${jobId}`)).state;
}

function listen(server, host) {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => {
      server.off('error', reject);
      resolve(`http://${host}:${server.address().port}`);
    });
  });
}

function close(server) {
  return new Promise((resolve) => {
    server.closeAllConnections?.();
    server.close(() => resolve());
  });
}

// ---------------------------------------------------------------------------------------------------------------
// The attacker's page. Runs in the browser; records, for every attempt, whether a body could be read.
// ---------------------------------------------------------------------------------------------------------------

/** The attacker's script, given the hub and the job. Sets window.__attack = { done, results }. */
function attackScript(hub, job) {
  return `
'use strict';
const HUB = ${JSON.stringify(hub)};
const JOB = ${JSON.stringify(job)};
const results = [];
window.__attack = { done: false, results };
const jobPath = '/flink/jobs/' + JOB;
const cancelSpellings = ['yarn-cancel', 'yarn%2Dcancel', '%79arn-cancel', 'YARN-CANCEL', 'yarn-stop', 'yarn%2dstop']
  .flatMap((s) => [jobPath + '/' + s, '/flink/v1/jobs/' + JOB + '/' + s]);

function record(how, method, path, outcome, detail) {
  results.push({ how, method, path, outcome, detail: String(detail ?? '').slice(0, 200) });
  const row = document.createElement('tr');
  for (const text of [how, method, path, outcome, String(detail ?? '').slice(0, 80)]) {
    const cell = document.createElement('td');
    cell.textContent = text;
    row.appendChild(cell);
  }
  document.querySelector('tbody').appendChild(row);
}

async function tryFetch(path, init = {}) {
  const method = init.method ?? 'GET';
  const how = 'fetch ' + (init.mode ?? 'cors') + (init.credentials ? ' ' + init.credentials : '');
  try {
    const response = await fetch(HUB + path, { ...init, signal: AbortSignal.timeout(10000) });
    if (response.type === 'opaque' || response.type === 'opaqueredirect') {
      record(how, method, path, 'opaque', response.type);
      return;
    }
    const text = await response.text();
    record(how, method, path, 'READ', 'HTTP ' + response.status + ' ' + text);
  } catch (e) {
    record(how, method, path, e && e.name === 'TimeoutError' ? 'timeout' : 'blocked', e && (e.name + ': ' + e.message));
  }
}

function tryImage(path) {
  return new Promise((resolve) => {
    const img = new Image();
    const done = (outcome) => { record('image', 'GET', path, 'opaque', outcome); resolve(); };
    img.onload = () => done('loaded');
    img.onerror = () => done('error');
    setTimeout(() => done('timeout'), 10000);
    img.src = HUB + path;
  });
}

/** A navigation in a hidden frame (GET), or a hidden form's POST into one; then tries to read the frame. */
function tryFrame(path, form) {
  return new Promise((resolve) => {
    const name = 'sink' + results.length + Math.random().toString(36).slice(2);
    const frame = document.createElement('iframe');
    frame.name = name;
    frame.style.display = 'none';
    document.body.appendChild(frame);
    let settled = false;
    const finish = (why) => {
      if (settled) return;
      settled = true;
      let outcome = 'opaque';
      let detail = why;
      try {
        const text = frame.contentDocument && frame.contentDocument.body && frame.contentDocument.body.innerText;
        if (text) { outcome = 'READ'; detail = text; }
      } catch (e) {
        detail = why + ', ' + e.name;
      }
      record(form ? 'form' : 'frame', form ? 'POST' : 'GET', path, outcome, detail);
      resolve();
    };
    // Ignores the frame's initial about:blank; the hub's answer (or Chromium's error page) is another origin.
    frame.addEventListener('load', () => {
      let blank = false;
      try {
        blank = frame.contentWindow.location.href === 'about:blank';
      } catch (e) {
        blank = false;
      }
      if (!blank) setTimeout(() => finish('loaded'), 200);
    });
    setTimeout(() => finish('timeout'), 10000);
    if (form) {
      const f = document.createElement('form');
      f.method = 'POST';
      f.action = HUB + path;
      f.target = name;
      f.enctype = 'text/plain';
      const input = document.createElement('input');
      input.type = 'hidden';
      input.name = '{"drain":false,"x":"';
      input.value = '"}';
      f.appendChild(input);
      document.body.appendChild(f);
      f.submit();
    } else {
      frame.src = HUB + path;
    }
  });
}

(async () => {
  try {
    // Reads: the whole cluster through the hub's proxy of Flink's REST API, and the hub's own API.
    for (const path of ['/flink/jobs/overview', '/flink/overview', jobPath, '/flink/jobmanager/config',
      '/api/v1/jobs', '/api/v1/overview', '/api/v1/checkpoints', '/api/v1/series/names']) {
      await tryFetch(path);
    }
    // Cancel and stop, every way a page of another site can send a request.
    for (const path of cancelSpellings) {
      await tryFetch(path);
      await tryFetch(path, { mode: 'no-cors' });
      await tryFetch(path, { mode: 'no-cors', credentials: 'include' });
    }
    await Promise.all(cancelSpellings.map((path) => tryImage(path)));
    for (const path of cancelSpellings.slice(0, 4)) {
      await tryFrame(path, false);
    }
    await tryFetch(jobPath, { method: 'PATCH' });
    await tryFetch(jobPath + '?mode=cancel', { method: 'PATCH' });
    await tryFetch(jobPath + '?mode=cancel', { method: 'PATCH', mode: 'no-cors' });
    await tryFetch(jobPath + '/stop', { method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ drain: false }) });
    await tryFetch(jobPath + '/stop', { method: 'POST', mode: 'no-cors', headers: { 'Content-Type': 'text/plain' },
      body: JSON.stringify({ drain: false }) });
    await tryFetch('/flink/v1' + jobPath.slice('/flink'.length) + '/stop', { method: 'POST', mode: 'no-cors',
      body: JSON.stringify({ drain: false }) });
    await tryFetch(jobPath + '/savepoints', { method: 'POST', mode: 'no-cors', body: '{"cancel-job":true}' });
    await tryFetch(jobPath + '/yarn-cancel', { method: 'POST', mode: 'no-cors' });
    await tryFrame(jobPath + '/stop', true);
    await tryFrame(jobPath + '/yarn-cancel', true);
  } catch (e) {
    record('script', '-', '-', 'error', e && e.stack);
  } finally {
    window.__attack.done = true;
  }
})();
`;
}

function attackPage(hub, job) {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Another site</title>
<style>body{font:13px/1.4 sans-serif;margin:16px}table{border-collapse:collapse}td,th{border:1px solid #ccc;
padding:2px 6px;text-align:left}</style></head>
<body><h1>A page of another site, trying the hub</h1>
<table><thead><tr><th>how</th><th>method</th><th>path</th><th>outcome</th><th>detail</th></tr></thead>
<tbody></tbody></table>
<script>${attackScript(hub, job)}</script></body></html>`;
}

/** Serves the attacker's page on host:0; resolves to { server, origin }, or null when host cannot be bound. */
async function startAttacker(host, job) {
  const server = createServer((req, res) => {
    if (req.url === '/' || req.url?.startsWith('/?')) {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
      res.end(attackPage(base, job));
    } else {
      res.writeHead(404, { 'Content-Type': 'text/plain' });
      res.end('not found');
    }
  });
  try {
    return { server, origin: await listen(server, host) };
  } catch (e) {
    info(`cannot serve a page on ${host} (${e.code ?? e.message}); skipping that origin`);
    return null;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The reverse proxy with a path prefix.
// ---------------------------------------------------------------------------------------------------------------

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te',
  'trailer', 'proxy-authorization', 'proxy-authenticate']);

/** /insight/<rest> → INSIGHT_URL/<rest>; everything else 404. Records what arrived outside the prefix. */
function startPrefixProxy(outside) {
  const hub = new URL(`${base}/`);
  const server = createServer((req, res) => {
    const url = req.url ?? '/';
    if (!url.startsWith(`${PREFIX}/`)) {
      // Chromium asks for /favicon.ico by itself for a page without an icon link (an error page, say).
      if (url !== '/favicon.ico') outside.push(`${req.method} ${url}`);
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end(`not under ${PREFIX}/: ${url}`);
      return;
    }
    const headers = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (name !== 'host' && !HOP_BY_HOP.has(name)) headers[name] = value;
    }
    const upstream = httpRequest({
      hostname: hub.hostname, port: hub.port, method: req.method,
      path: hub.pathname.replace(/\/$/, '') + url.slice(PREFIX.length), headers,
    }, (answer) => {
      const back = {};
      for (const [name, value] of Object.entries(answer.headers)) {
        if (HOP_BY_HOP.has(name)) continue;
        // Like nginx's `proxy_redirect default`: a redirect to the hub's own URL is moved under the prefix. A
        // redirect to an absolute path is passed as it is (and shows up as a request outside the prefix).
        back[name] = name === 'location' && typeof value === 'string' && value.startsWith(hub.href)
          ? `${PREFIX}/${value.slice(hub.href.length)}` : value;
      }
      res.writeHead(answer.statusCode ?? 502, back);
      answer.pipe(res);
    });
    upstream.on('error', (e) => {
      if (!res.headersSent) res.writeHead(502, { 'Content-Type': 'text/plain' });
      res.end(`proxy: ${e.message}`);
    });
    req.pipe(upstream);
  });
  return server;
}

// ---------------------------------------------------------------------------------------------------------------
// Panel helpers, as in panel.e2e.mjs.
// ---------------------------------------------------------------------------------------------------------------

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

async function waitForCharts(page) {
  const deadline = Date.now() + WAIT_MS;
  let figures = [];
  while (Date.now() < deadline) {
    figures = await chartFigures(page);
    if (figures.some((f) => f.points > 0)) break;
    await page.waitForTimeout(250);
  }
  return figures;
}

async function noDialog(dialog) {
  check('no dialog opens', false, `a ${dialog.type()} dialog opened: ${dialog.message()}`);
  await dialog.dismiss().catch(() => {});
}

async function screenshot(page, name, fullPage = false) {
  if (shots) {
    mkdirSync(shots, { recursive: true });
    await page.screenshot({ path: join(shots, `${name}.png`), fullPage });
    info(`screenshot ${join(shots, `${name}.png`)}`);
  }
}

// ---------------------------------------------------------------------------------------------------------------

let jobId = process.env.JOB_ID;
if (!jobId) {
  jobId = (await flinkJson('/jobs/overview')).jobs?.find((j) => j.state === 'RUNNING')?.jid;
  info(`JOB_ID not set; using the first RUNNING job of Flink's REST API: ${jobId}`);
}
const stateBefore = jobId ? await jobState(jobId).catch((e) => `unknown (${e.message})`) : 'no job';
check('the job is RUNNING before the attempts', stateBefore === 'RUNNING', `${jobId}: ${stateBefore}`);

const servers = [];
const browser = await launchChromium();
try {
  // 1. Other sites.
  const attackers = [await startAttacker('127.0.0.1', jobId), await startAttacker('127.0.0.2', jobId)].filter(Boolean);
  servers.push(...attackers.map((a) => a.server));
  for (const { origin } of attackers) {
    const context = await browser.newContext({ viewport: { width: 1440, height: 1000 } });
    const page = await context.newPage();
    page.on('dialog', noDialog);
    // What the hub answered, as the browser saw it (also for opaque answers), for the log.
    const statuses = new Map();
    page.on('response', (r) => {
      if (r.url().startsWith(`${base}/`)) {
        const key = `${r.request().method()} ${r.url().slice(base.length)} → ${r.status()}`;
        statuses.set(key, (statuses.get(key) ?? 0) + 1);
      }
    });
    await page.goto(`${origin}/`);
    const finished = await page.waitForFunction(() => window.__attack?.done === true, null, { timeout: 180_000 })
      .then(() => true, () => false);
    check(`${origin}: the attacker's page ran all its attempts`, finished);
    const results = await page.evaluate(() => window.__attack?.results ?? []);
    const counts = {};
    for (const r of results) counts[r.outcome] = (counts[r.outcome] ?? 0) + 1;
    info(`${origin}: ${results.length} attempts, outcomes ${JSON.stringify(counts)}`);
    for (const [line, n] of statuses) info(`  hub answered ${line}${n > 1 ? ` (×${n})` : ''}`);
    const read = results.filter((r) => r.outcome === 'READ');
    check(`${origin}: no attempt of another origin could read a response of the hub`,
      results.length > 0 && read.length === 0,
      read.map((r) => `${r.how} ${r.method} ${r.path}: ${r.detail.slice(0, 60)}`).join(' | '));
    const errors = results.filter((r) => r.outcome === 'error');
    check(`${origin}: the attacker's script raised no error`, errors.length === 0,
      errors.map((r) => r.detail).join(' | '));
    await screenshot(page, `cross-origin-${new URL(origin).hostname}`, true);
    await context.close();
  }
  // Flink's own REST API, from Node, after letting a cancellation, if one got through, take effect.
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  const stateAfter = jobId ? await jobState(jobId).catch((e) => `unknown (${e.message})`) : 'no job';
  check('the job is still RUNNING after every attempt (Flink\'s REST API)', stateAfter === 'RUNNING',
    `${jobId}: ${stateAfter}`);

  // 2. A path prefix.
  const outside = [];
  const proxy = startPrefixProxy(outside);
  servers.push(proxy);
  const proxyOrigin = await listen(proxy, '127.0.0.1');
  const prefixed = `${proxyOrigin}${PREFIX}/`;
  info(`reverse proxy: ${prefixed} → ${base}/`);
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  context.setDefaultTimeout(WAIT_MS);
  const bad = [];
  context.on('request', (r) => {
    const url = r.url();
    if (!/^(data|blob|about):/.test(url) && !url.startsWith(prefixed)) {
      bad.push(`${r.method()} ${url} (outside ${PREFIX}/)`);
    }
  });
  context.on('response', (r) => {
    if (r.url().startsWith(proxyOrigin) && r.status() >= 400) {
      bad.push(`${r.request().method()} ${r.url()} → ${r.status()}`);
    }
  });
  const page = await context.newPage();
  page.on('dialog', noDialog);
  page.on('pageerror', (err) => check('no uncaught page error', false, err.message));

  const response = await page.goto(prefixed);
  check(`prefix: ${PREFIX}/ answers the panel`, response?.status() === 200, `HTTP ${response?.status()}`);
  const heading = await page.getByRole('heading', { name: 'Overview' }).waitFor().then(() => true, () => false);
  check(`prefix: the overview renders at ${PREFIX}/`, heading, page.url());
  const charts = heading ? await waitForCharts(page) : [];
  check('prefix: the overview has charts with data points', charts.some((f) => f.points > 0), JSON.stringify(charts));
  check(`prefix: the view is in the fragment under ${PREFIX}/`, page.url().startsWith(`${prefixed}#/overview`),
    page.url());
  await screenshot(page, 'prefix-overview');

  const back = await page.locator('a.fi-menu-back').first().waitFor().then(
    () => page.locator('a.fi-menu-back').first().evaluate((a) => a.href), () => null);
  check(`prefix: the panel links to Flink's dashboard at ${PREFIX}/flink/`, back === `${prefixed}flink/`, String(back));

  await page.locator('.fi-menu').getByRole('link', { name: 'Jobs' }).click();
  const jobsShown = await page.getByRole('heading', { name: 'Jobs' }).waitFor().then(() => true, () => false);
  check(`prefix: the Jobs menu entry opens the jobs view under ${PREFIX}/`,
    jobsShown && page.url().startsWith(`${prefixed}#/jobs`), page.url());
  const rows = jobsShown
    && await page.locator('table.fi-table tbody tr').first().waitFor().then(() => true, () => false);
  check('prefix: the jobs view lists jobs', !!rows);
  if (rows && jobId) {
    const link = page.locator(`a[href*="#/jobs/${jobId}"]`).first();
    if (await link.count()) {
      await link.click();
      const opened = await page.locator('.fi-page-head h1.fi-name').first().waitFor().then(() => true, () => false);
      check(`prefix: a job's page opens under ${PREFIX}/`,
        opened && page.url().startsWith(`${prefixed}#/jobs/${jobId}`), page.url());
    }
  }

  // Flink's dashboard through the hub's proxy, through the prefix, with the Insight entry.
  const dashboard = await page.goto(`${prefixed}flink/`, { waitUntil: 'domcontentloaded' });
  check(`prefix: ${PREFIX}/flink/ answers Flink's dashboard`, dashboard?.status() === 200,
    `HTTP ${dashboard?.status()}`);
  await page.locator('nz-sider ul[nz-menu]').first().waitFor().catch(() => {});
  const flinkEntries = await page.locator('nz-sider ul[nz-menu] > li:not([data-insight-tab])').allInnerTexts();
  check(`prefix: Flink's dashboard renders at ${PREFIX}/flink/ (its own menu)`,
    flinkEntries.some((t) => /Overview/i.test(t)) && flinkEntries.some((t) => /Job Manager/i.test(t)),
    JSON.stringify(flinkEntries));
  const slots = await page.getByText('Available Task Slots').first().waitFor({ state: 'visible' })
    .then(() => page.locator('.ant-table-tbody tr').first().waitFor({ state: 'visible' }))
    .then(() => true, () => false);
  check('prefix: Flink\'s dashboard shows the cluster overview and job list', slots);
  const entry = page.locator('nz-sider ul[nz-menu] > li[data-insight-tab="menu"]');
  const appeared = await entry.waitFor().then(() => true, () => false);
  check(`prefix: the Insight entry appears in Flink's menu at ${PREFIX}/flink/`, appeared);
  await screenshot(page, 'prefix-flink-dashboard');
  if (appeared) {
    const target = await entry.locator('a').first().evaluate((a) => a.href);
    check(`prefix: the Insight entry links to ${PREFIX}/`, target.split('#')[0] === prefixed, target);
    await entry.click();
    const panel = await page.waitForURL((url) => !url.pathname.startsWith(`${PREFIX}/flink/`))
      .then(() => page.locator('fi-root .fi-sider').first().waitFor()).then(() => true, () => false);
    check(`prefix: clicking the entry opens the panel at ${PREFIX}/`, panel && page.url().startsWith(prefixed),
      page.url());
  }
  await context.close();
  check(`prefix: every request of the browser stayed under ${PREFIX}/ and succeeded`, bad.length === 0,
    [...new Set(bad)].join(' | '));
  check(`prefix: nothing reached the proxy outside ${PREFIX}/`, outside.length === 0,
    [...new Set(outside)].join(' | '));
} catch (err) {
  check('run completes', false, err instanceof Error ? err.stack ?? err.message : String(err));
} finally {
  await browser.close();
  await Promise.all(servers.map(close));
}

finish();
