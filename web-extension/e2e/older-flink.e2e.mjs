// The panel on a Flink older than 2.2 in headless Chromium: what that Flink gives is shown (checkpoints and jobs the
// hub read from Flink's REST API), and where a figure needs a newer Flink a note says which version and option,
// instead of an empty chart. The integration test runs it against a real 1.20 cluster.
//
//   INSIGHT_URL=http://127.0.0.1:9250 JOB_ID=<a checkpointing job> FLINK_VERSION=1.20.3 node e2e/older-flink.e2e.mjs
//
// Prints each check; exits 1 if any failed.
import { checks, launchChromium } from './lib/e2e.mjs';

const base = (process.env.INSIGHT_URL ?? '').replace(/\/+$/, '');
const jobId = process.env.JOB_ID;
const flinkVersion = process.env.FLINK_VERSION;
if (!base || !jobId || !flinkVersion) {
  console.error('set INSIGHT_URL, JOB_ID and FLINK_VERSION');
  process.exit(2);
}
const WAIT_MS = Number(process.env.E2E_WAIT_MS ?? 20_000);
const { check, finish } = checks();

/** The text of every note shown on the page, whitespace folded. */
async function notes(page) {
  return page.locator('fi-capability-note:not([hidden])').evaluateAll(
    (els) => els.map((el) => (el.textContent ?? '').replace(/\s+/g, ' ').trim()));
}

/** Waits for at least one shown note, then returns all of them. */
/**
 * The notes once one names a newer Flink, or whatever is shown after WAIT_MS: right after a route change the previous
 * page's notes can still be in the DOM, or none yet, so the first note seen is not necessarily this page's.
 */
async function shownNotes(page) {
  const deadline = Date.now() + WAIT_MS;
  let shown = await notes(page);
  while (!shown.some(namesNewerFlink) && Date.now() < deadline) {
    await page.waitForTimeout(200);
    shown = await notes(page);
  }
  return shown;
}

function namesNewerFlink(note) {
  return /Flink 2\.\d+ or newer/.test(note) && note.includes(`this cluster runs Flink ${flinkVersion}`);
}

const browser = await launchChromium();
try {
  const context = await browser.newContext({ viewport: { width: 1440, height: 1000 } });
  context.setDefaultTimeout(WAIT_MS);
  const page = await context.newPage();
  page.on('pageerror', (err) => check('no uncaught page error', false, err.message));

  await page.goto(`${base}/#/overview?range=1h`);
  const overviewNotes = await shownNotes(page);
  check('overview: a note names the Flink that gives the missing figures, and this one',
    overviewNotes.some(namesNewerFlink), JSON.stringify(overviewNotes));

  await page.goto(`${base}/#/jobs?range=1h`);
  const jobsNotes = await shownNotes(page);
  check('jobs: a note says job events need a newer Flink', jobsNotes.some(namesNewerFlink), JSON.stringify(jobsNotes));
  const listed = await page.locator(`a[href*="${jobId}"]`).first().waitFor().then(() => true, () => false);
  check('jobs: the checkpointing job is listed (read from Flink\'s REST API)', listed);

  await page.goto(`${base}/#/jobs/${jobId}?range=1h`);
  await page.locator('fi-checkpoint-table tbody tr').nth(2).waitFor().catch(() => {});
  const rows = await page.locator('fi-checkpoint-table tbody tr').count();
  check('job: the checkpoint table lists the checkpoints Flink\'s REST API gave', rows >= 3, `${rows} rows`);
  const jobNotes = await shownNotes(page);
  check('job: notes say which figures need a newer Flink', jobNotes.some(namesNewerFlink), JSON.stringify(jobNotes));
  // Charts are drawn a tick after their data arrives: wait (bounded) for every chart on the page to have points.
  let emptyCharts = [];
  for (const deadline = Date.now() + WAIT_MS; Date.now() < deadline; await page.waitForTimeout(500)) {
    emptyCharts = await page.evaluate(() => {
      const api = globalThis.insightEcharts;
      return [...document.querySelectorAll('[_echarts_instance_]')].filter((el) => {
        const series = api?.getInstanceByDom(el)?.getOption()?.series ?? [];
        return !series.some((s) => Array.isArray(s.data) && s.data.some((d) => Array.isArray(d) && d[1] != null));
      }).map((el) => el.closest('.fi-card')?.querySelector('h2')?.textContent?.trim() ?? '(untitled)');
    });
    if (emptyCharts.length === 0) break;
  }
  check('job: no chart is drawn empty', emptyCharts.length === 0, JSON.stringify(emptyCharts));
} finally {
  await browser.close();
}
finish();
