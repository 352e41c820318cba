// A stand-in for the hub, for developing and checking the panel without a Flink cluster: serves the built panel
// (dist/insight-web; index.html at /, the views are in the fragment: /#/jobs/<id>; like the hub, any other path that
// is not a file of the panel is 404) and /api/v1/* from e2e/fixtures, every timestamp shifted so the recorded hour
// ends now. GET/HEAD only, 127.0.0.1 only.
//
//   node e2e/stub-server.mjs [--port 9299] [--client-unavailable] [--uptime 4m]
//
// --uptime makes a hub that started that long ago: its overview says so, and it has no series point, checkpoint or
// client history from before (a young cluster, whose charts start where its data starts).
// Prints `stub listening on http://127.0.0.1:<port>` once ready.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const fixturesDir = join(here, 'fixtures');
const distDir = join(here, '..', 'dist', 'insight-web');
const args = process.argv.slice(2);
const port = Number(args[args.indexOf('--port') + 1] || process.env.STUB_PORT || 9299);
const clientUnavailable = args.includes('--client-unavailable');
const uptimeText = args.includes('--uptime') ? args[args.indexOf('--uptime') + 1] : undefined;

const FIXTURES = ['overview', 'jobs', 'checkpoints', 'client', 'series', 'statements', 'queries'];
if (FIXTURES.some((n) => !existsSync(join(fixturesDir, `${n}.json`)))) {
  execFileSync(process.execPath, [join(fixturesDir, 'generate.mjs')], { stdio: 'inherit' });
}

function load(name) {
  return JSON.parse(readFileSync(join(fixturesDir, name), 'utf8'));
}
const fixtures = Object.fromEntries(
  FIXTURES.map((n) => [n, load(`${n}.json`)]),
);

const TIME_FIELDS = new Set(['triggerTime', 'endTime', 'startTime', 'createdAt', 'endedAt', 'allSubtasksRunningAt',
  'timestamp', 'updatedAt', 'start', 'end', 'admittedAt', 'acceptedAt', 'runningAt', 'terminalAt', 'firstSeen',
  'lastSeen']);

/** A deep copy with every time field (and every series point's time) moved by delta ms. */
function shift(value, delta, key) {
  if (Array.isArray(value)) {
    if (key === 'points') {
      return value.map(([t, v]) => [t + delta, v]);
    }
    return value.map((v) => shift(v, delta));
  }
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shift(v, delta, k)]));
  }
  return typeof value === 'number' && TIME_FIELDS.has(key) ? value + delta : value;
}

function current(name) {
  const { recordedAt, body } = fixtures[name];
  return shift(body, Date.now() - recordedAt);
}

const DURATION = /^(\d{1,12})(ms|s|m|h|d)?$/;
const FACTOR = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };
function duration(text) {
  const m = DURATION.exec(text);
  return m ? Number(m[1]) * FACTOR[m[2] ?? 'ms'] : undefined;
}
const uptimeMs = uptimeText ? duration(uptimeText) : undefined;
if (uptimeText && uptimeMs == null) {
  console.error(`--uptime ${uptimeText}: not a duration such as 4m`);
  process.exit(2);
}
/** The first moment the hub has data for: with --uptime, when it started; else any. */
function dataSince(now) {
  return uptimeMs != null ? now - uptimeMs : -Infinity;
}

function instant(text, now, fallback) {
  if (!text) return fallback;
  if (text === 'now') return now;
  if (text.startsWith('-')) return now - (duration(text.slice(1)) ?? 0);
  return Number(text);
}

/** /api/v1/series as the hub answers it: label filters, window, step buckets (last sample, bucket start). */
function seriesAnswer(query) {
  const now = Date.now();
  const metric = query.get('metric');
  if (!metric) return [400, { error: "missing parameter 'metric'", status: 400 }];
  const from = Math.max(instant(query.get('from'), now, now - 3_600_000), dataSince(now));
  const to = instant(query.get('to'), now, now);
  const step = duration(query.get('step') ?? '') ?? 0;
  const limit = Number(query.get('limit') ?? 200);
  const filters = [...query.entries()].filter(([k]) => !['metric', 'from', 'to', 'step', 'limit'].includes(k));
  const matching = current('series').filter(
    (s) => s.name === metric && filters.every(([k, v]) => s.labels[k] === v),
  );
  const out = matching.slice(0, limit).map((s) => {
    const inWindow = s.points.filter(([t]) => t >= from && t <= to);
    if (!step) return { ...s, points: inWindow };
    const buckets = new Map();
    for (const [t, v] of inWindow) buckets.set(Math.floor(t / step) * step, v);
    return { ...s, points: [...buckets.entries()] };
  });
  return [200, { metric, from, to, step, matched: matching.length, truncated: matching.length > limit, series: out }];
}

/** /api/v1/client as the hub answers it: the figures, and with 'from' their history within the window. */
function clientAnswer(query) {
  const { recordedAt, body } = fixtures.client;
  const { history, ...figures } = body;
  if (clientUnavailable) {
    return [200, { ...figures, available: false,
      hint: 'install the interactive-client jar in the SQL Gateway\'s lib/ and set execution.target: remote-interactive' }];
  }
  if (!query.get('from')) {
    return [200, figures];
  }
  const now = Date.now();
  const from = Math.max(instant(query.get('from'), now, now - 3_600_000), dataSince(now));
  const to = instant(query.get('to'), now, now);
  const delta = now - recordedAt;
  // every array in the history is a series of [t, value] points
  const cut = (v) => Array.isArray(v)
    ? v.map(([t, x]) => [t + delta, x]).filter(([t]) => t >= from && t <= to)
    : Object.fromEntries(Object.entries(v).map(([k, x]) => [k, cut(x)]));
  return [200, { ...figures, history: cut(history) }];
}

const STATEMENT_ORDERS = {
  total: (a, b) => b.totalMs - a.totalMs,
  p99: (a, b) => b.p99Ms - a.p99Ms,
  calls: (a, b) => b.calls - a.calls,
  failures: (a, b) => b.failed + b.canceled - (a.failed + a.canceled) || b.totalMs - a.totalMs,
};

/** /api/v1/statements as the hub answers it: sorted, limited, those that ran since 'from'; unknown parameters 400. */
function statementsAnswer(query) {
  const unknown = [...query.keys()].find((k) => !['sort', 'limit', 'from'].includes(k));
  if (unknown) return [400, { error: `unknown parameter (accepted: sort, limit, from): ${unknown}`, status: 400 }];
  const sort = query.get('sort') ?? 'total';
  if (!STATEMENT_ORDERS[sort]) return [400, { error: "parameter 'sort' must be one of total, p99, calls, failures", status: 400 }];
  const now = Date.now();
  const from = instant(query.get('from'), now, -Infinity);
  const all = current('statements');
  const statements = all.filter((s) => s.lastSeen >= from).sort(STATEMENT_ORDERS[sort])
    .slice(0, Number(query.get('limit') ?? 100));
  return [200, { sort, kept: all.length, statements }];
}

function api(path, query) {
  switch (path) {
    case '/api/v1/overview': {
      const now = Date.now();
      return [200, uptimeMs == null ? current('overview')
        : { ...current('overview'), uptimeMs, startedAt: new Date(now - uptimeMs).toISOString() }];
    }
    case '/api/v1/jobs':
      return [200, current('jobs')];
    case '/api/v1/checkpoints': {
      const all = current('checkpoints');
      const job = query.get('job');
      const limit = Number(query.get('limit') ?? 50);
      const jobs = all.jobs
        .filter((j) => !job || j.jobId === job)
        .map((j) => ({ ...j, checkpoints: j.checkpoints.filter((c) => c.endTime >= dataSince(Date.now())).slice(0, limit) }));
      return [200, { jobs: job && !jobs.length ? [{ jobId: job, jobName: null, checkpoints: [] }] : jobs }];
    }
    case '/api/v1/client':
      return clientAnswer(query);
    case '/api/v1/series':
      return seriesAnswer(query);
    case '/api/v1/statements':
      return statementsAnswer(query);
    case '/api/v1/queries': {
      const id = query.get('statement') ?? '';
      return [200, current('queries')[id] ?? { statementId: id, statement: null, slowest: [], latest: [] }];
    }
    case '/api/v1/series/names': {
      const prefix = query.get('prefix') ?? '';
      const names = [...new Set(fixtures.series.body.map((s) => s.name))].filter((n) => n.startsWith(prefix)).sort();
      return [200, { prefix, truncated: false, names: clientUnavailable ? names.filter((n) => !n.includes('insight_client_')) : names }];
    }
    default:
      return [404, { error: `no such endpoint: ${path}`, status: 404 }];
  }
}

const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css',
  '.svg': 'image/svg+xml', '.json': 'application/json', '.txt': 'text/plain' };
// The hub's policy (StaticFiles.CONTENT_SECURITY_POLICY), so the stub catches a panel that needs more.
const CSP = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:;" +
  " font-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'none'";

const server = createServer((req, res) => {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ error: 'method not allowed', status: 405 }));
    return;
  }
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  if (url.pathname.startsWith('/api/')) {
    const [status, body] = api(url.pathname, url.searchParams);
    res.writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
    res.end(req.method === 'HEAD' ? undefined : JSON.stringify(body));
    return;
  }
  const file = normalize(join(distDir, url.pathname === '/' ? 'index.html' : url.pathname));
  if (!file.startsWith(distDir) || !existsSync(file) || !extname(file)) {
    res.writeHead(404, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ error: `not found: ${url.pathname}`, status: 404 }));
    return;
  }
  const type = TYPES[extname(file)] ?? 'application/octet-stream';
  res.writeHead(200, { 'Content-Type': type, ...(type.startsWith('text/html') ? { 'Content-Security-Policy': CSP } : {}) });
  res.end(req.method === 'HEAD' ? undefined : readFileSync(file));
});

server.listen(port, '127.0.0.1', () => console.log(`stub listening on http://127.0.0.1:${port}`));
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => server.close(() => process.exit(0)));
}
