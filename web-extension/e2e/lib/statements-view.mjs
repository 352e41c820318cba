// The Statements view, for panel.e2e.mjs: the table sorts as the hub does (the sort in the URL), a statement opens
// its queries as timelines drawn by ECharts with a legend of phases, each query says whether the JobManager's side
// is known, and a statement whose text is HTML shows as text (no element made from it, no dialog: panel.e2e.mjs
// fails on any dialog).

const SORTS = ['p99', 'calls', 'failures', 'total'];
const PHASES = ['client · submit', 'client · cluster run', 'client · result fetch'];
const NO_CLUSTER_SIDE = "the JobManager's side of this query is not known (job not seen by the hub)";

/** The statement ids of the table's rows, top to bottom. */
function tableOrder(page) {
  return page.locator('table.fi-statements tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-statement')));
}

/** What the timeline charts hold, read from ECharts itself: rows, legend, and per phase series the rows it has bars in. */
function timelineFigures(page) {
  return page.evaluate(() =>
    [...document.querySelectorAll('fi-query-timeline')].map((host) => {
      const el = host.querySelector('[_echarts_instance_]');
      const option = el ? globalThis.insightEcharts?.getInstanceByDom(el)?.getOption() : undefined;
      const series = (option?.series ?? []).filter((s) => !String(s.id).startsWith('gap:'));
      const rowsWith = (side) => {
        const rows = new Set();
        for (const s of series.filter((x) => String(x.id).startsWith(`${side}:`))) {
          (s.data ?? []).forEach((d, i) => { if (d && d.value > 0) rows.add(i); });
        }
        return [...rows];
      };
      // Where each row's client stack ends, as ECharts stacked it (its model's stack result): the query's end.
      const chart = el ? globalThis.insightEcharts?.getInstanceByDom(el) : undefined;
      const stacked = [];
      chart?.getModel?.().eachSeries((s) => {
        if (String(s.id).startsWith('client:')) {
          const data = s.getData();
          const dim = data.getCalculationInfo('stackResultDimension');
          stacked.push(Array.from({ length: data.count() }, (_, i) => data.get(dim, i)));
        }
      });
      const clientEnds = stacked.length ? stacked[stacked.length - 1] : [];
      // ... and where the data given to the chart says the row's last client phase ends.
      const phaseEnds = (option?.yAxis?.[0]?.data ?? []).map((_, row) => Math.max(0, ...series
        .filter((x) => String(x.id).startsWith('client:'))
        .map((x) => x.data?.[row]?.end ?? 0)));
      return {
        list: host.getAttribute('data-list'),
        clientEnds,
        phaseEnds,
        rows: Number(host.getAttribute('data-rows')),
        canvas: !!el?.querySelector('canvas'),
        axisRows: option?.yAxis?.[0]?.data?.length ?? 0,
        legend: option?.legend?.[0]?.data ?? [],
        clientRows: rowsWith('client'),
        clusterRows: rowsWith('cluster'),
        notes: [...host.querySelectorAll('.fi-query-list li')].map((li) => !!li.querySelector('.fi-no-cluster-side')),
        jobLinks: [...host.querySelectorAll('a.fi-job-link')].map((a) => a.getAttribute('href')),
        items: [...host.querySelectorAll('.fi-query-list li')].map((li) => li.textContent.replace(/\s+/g, ' ').trim()),
      };
    }));
}

/**
 * Checks the Statements view against what the hub answers. {@link hostile}: a string one statement's text must hold
 * (the integration test runs such a query), or undefined to check whichever statements there are.
 */
export async function checkStatementsView({ page, base, getJson, check, screenshot, hostile, waitMs }) {
  const [all, overview] = await Promise.all([getJson('/api/v1/statements?limit=1000&from=-1h'), getJson('/api/v1/overview')]);
  // Where job links lead: the hub's copy of Flink's dashboard when it serves one (relative: `flink/#/job/...`).
  const dashboard = overview.flinkDashboardPath ? overview.flinkDashboardPath.replace(/^\/+/, '') : null;
  await page.goto(`${base}/#/statements?range=1h&refresh=off`);
  await page.getByRole('heading', { name: 'Statements' }).waitFor();
  if (!all.statements.length) {
    check('statements: the hub has statements to show', !hostile, 'no statement in /api/v1/statements');
    await page.getByText('No statements yet').waitFor();
    const text = await page.locator('fi-state').first().textContent();
    check('statements: empty state names metrics.reporter.insight.hub.clients', /hub\.clients/.test(text ?? ''), text ?? '');
    return;
  }
  await page.locator('table.fi-statements tbody tr').first().waitFor();

  // Each order of the hub: the radio writes the sort to the URL and the rows come back in the hub's order.
  for (const sort of SORTS) {
    await page.locator(`button[data-sort="${sort}"]`).click();
    await page.locator(`table.fi-statements[data-sort="${sort}"]`).waitFor();
    const inUrl = sort === 'total' ? !/[?&]sort=/.test(page.url()) : page.url().includes(`sort=${sort}`);
    check(`statements: sorting by ${sort} is in the URL`, inUrl, page.url());
    let shown = [];
    let expected = [];
    const deadline = Date.now() + waitMs;
    do {
      expected = (await getJson(`/api/v1/statements?sort=${sort}&limit=25&from=-1h`)).statements.map((s) => s.id);
      shown = await tableOrder(page);
      if (JSON.stringify(shown) === JSON.stringify(expected)) break;
      await page.waitForTimeout(250);
    } while (Date.now() < deadline);
    check(`statements: rows in the hub's ${sort} order`, JSON.stringify(shown) === JSON.stringify(expected),
      `shown ${shown.join(',')} · hub ${expected.join(',')}`);
  }

  // The statement to open, on the table's first page (total time): the one whose text is HTML when there is one.
  const onPage = new Set(await tableOrder(page));
  const candidates = all.statements.filter((s) => onPage.has(s.id));
  const target = candidates.find((s) => hostile && s.statement.includes(hostile)) ?? candidates[0] ?? all.statements[0];
  if (hostile) {
    check('statements: the hub kept the statement whose text holds HTML', target.statement.includes(hostile),
      `no statement holds ${hostile}`);
  }
  if (/[<>]/.test(target.statement)) {
    const cell = page.locator(`tr[data-statement="${target.id}"] code.fi-sql`);
    const shown = await cell.textContent();
    check('statements: a statement holding HTML shows its text literally', shown === target.statement
      || (target.statement.startsWith(shown.slice(0, -1)) && shown.endsWith('…')), `${shown} vs ${target.statement}`);
  }

  await page.locator(`tr[data-statement="${target.id}"] a.fi-open-statement`).click();
  await page.waitForURL(new RegExp(`statement=${target.id}`));
  const detail = page.locator('pre.fi-sql-full');
  await detail.waitFor();
  check('statements: the open statement shows its whole text, as text', (await detail.textContent()) === target.statement,
    await detail.textContent());

  const queries = await getJson(`/api/v1/queries?statement=${target.id}`);
  let figures = [];
  const deadline = Date.now() + waitMs;
  while (Date.now() < deadline) {
    figures = await timelineFigures(page);
    if (figures.length === 2 && figures.every((f) => f.rows === 0 || (f.canvas && f.axisRows === f.rows && f.clientRows.length))) break;
    await page.waitForTimeout(250);
  }
  check('statements: the slowest and latest queries each have a timeline', figures.length === 2
    && figures[0].rows === queries.slowest.length && figures[1].rows === queries.latest.length, JSON.stringify(figures));
  for (const f of figures.filter((x) => x.rows > 0)) {
    check(`statements: the ${f.list} timeline draws on a canvas, a row per query, client phases in every row`,
      f.canvas && f.axisRows === f.rows && f.clientRows.length === f.rows, JSON.stringify(f));
    check(`statements: the ${f.list} timeline has a legend of phases`, PHASES.every((p) => f.legend.includes(p)),
      f.legend.join(', '));
    check(`statements: each ${f.list} query's client phases are drawn up to where the last one ends`,
      f.clientEnds.length === f.rows && f.clientEnds.every((end, i) => Math.abs(end - f.phaseEnds[i]) <= 1),
      `stacked ${f.clientEnds.join(',')} · phases end ${f.phaseEnds.join(',')}`);
    const consistent = f.notes.every((note, row) => note === !f.clusterRows.includes(row));
    check(`statements: ${f.list} queries without the JobManager's phases say so, the others draw them`, consistent,
      JSON.stringify({ notes: f.notes, clusterRows: f.clusterRows }));
    check(`statements: ${f.list} queries link their jobs to Flink's dashboard${dashboard ? ' through the hub' : ''}`,
      f.jobLinks.length > 0 && f.jobLinks.every((href) => /#\/job\/running\/[0-9a-f]{32}\/overview$/.test(href ?? '')
        && (!dashboard || href.startsWith(dashboard))), f.jobLinks.join(', '));
    check(`statements: ${f.list} queries name their outcome and gateway`,
      f.items.every((t) => /SUCCEEDED|FAILED|CANCELED/.test(t) && /gateway /.test(t)), f.items.join(' | '));
  }
  if (hostile) {
    const known = figures.some((f) => f.clusterRows.length > 0);
    check("statements: the hub joined the JobManager's side of the queries", known,
      `every query says: ${NO_CLUSTER_SIDE}`);
  }

  // A tooltip is HTML: hover across the first timeline's bars.
  const canvas = page.locator('fi-query-timeline [_echarts_instance_]').first();
  const box = await canvas.boundingBox();
  for (let x = 0.15; box && x <= 0.9; x += 0.08) {
    await page.mouse.move(box.x + box.width * x, box.y + box.height * 0.45);
    await page.waitForTimeout(40);
  }
  const injected = await page.evaluate(() => document.querySelectorAll('img[src="x"], .fi-content img, .fi-tooltip img').length);
  check('statements: statement texts render as text (no injected elements)', injected === 0, `${injected} injected`);
  await page.mouse.move(0, 0);
  await screenshot(page, 'statements');
}
