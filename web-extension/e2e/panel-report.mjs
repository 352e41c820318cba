// A report, not a test: the panel's initial JavaScript, gzipped, and the time to its first chart with data points on
// the overview, in headless Chromium against a running hub. Prints a Markdown table; exits 0 whatever the figures.
//
//   INSIGHT_URL=http://127.0.0.1:9250 [RUNS=5] [CHROMIUM_PATH=/usr/bin/chromium] node e2e/panel-report.mjs
//
// Initial JavaScript = the scripts index.html loads and preloads (the lazy chunks of the other views excluded), each
// gzipped at level 9 as a server would send them. Time to first chart = navigation start to the first ECharts
// instance holding a data point, read in the page (performance.now()), over RUNS fresh browser contexts (cold cache).
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { launchChromium } from './lib/e2e.mjs';

const base = (process.env.INSIGHT_URL ?? '').replace(/\/+$/, '');
if (!base) {
  console.error('set INSIGHT_URL to the hub, e.g. INSIGHT_URL=http://127.0.0.1:9250');
  process.exit(2);
}
const runs = Math.min(20, Math.max(1, Number(process.env.RUNS ?? 5)));
const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'insight-web');

function initialScripts() {
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const names = new Set();
  for (const m of html.matchAll(/<(?:script|link)[^>]*(?:src|href)="([^"]+\.js)"/g)) names.add(m[1]);
  return [...names].map((name) => {
    const bytes = readFileSync(join(dist, name));
    return { name, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
  });
}

async function timeToFirstChart(browser) {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  try {
    const page = await context.newPage();
    await page.goto(`${base}/#/overview`, { waitUntil: 'commit' });
    await page.waitForFunction(
      () => {
        const api = globalThis.insightEcharts;
        return [...document.querySelectorAll('[_echarts_instance_]')].some((el) =>
          (api?.getInstanceByDom(el)?.getOption()?.series ?? []).some(
            (s) => Array.isArray(s.data) && s.data.some((d) => Array.isArray(d) && d[1] != null),
          ),
        );
      },
      null,
      { timeout: 30_000, polling: 'raf' },
    );
    return page.evaluate(() => performance.now());
  } finally {
    await context.close();
  }
}

const scripts = initialScripts();
const browser = await launchChromium();
const times = [];
try {
  for (let i = 0; i < runs; i++) times.push(await timeToFirstChart(browser));
} finally {
  await browser.close();
}
const sorted = [...times].sort((a, b) => a - b);
const median = sorted[Math.floor(sorted.length / 2)];
const gzipTotal = scripts.reduce((n, s) => n + s.gzip, 0);
const rawTotal = scripts.reduce((n, s) => n + s.raw, 0);

console.log(`Hub: ${base}; ${new Date().toISOString()}; Chromium headless, ${runs} cold loads\n`);
console.log('| figure | value | target |\n|---|---:|---|');
console.log(`| initial JavaScript, gzip -9 (${scripts.length} files, ${(rawTotal / 1024).toFixed(0)} KiB raw) | ` +
  `${(gzipTotal / 1024).toFixed(1)} KiB | <= 400 KB: ${gzipTotal <= 400_000 ? 'met' : 'not met'} |`);
console.log(`| time to first chart with data, median (min-max) | ${median.toFixed(0)} ms ` +
  `(${sorted[0].toFixed(0)}-${sorted[sorted.length - 1].toFixed(0)}) | < 1 s: ${median < 1000 ? 'met' : 'not met'} |`);
