// Prints the panel's initial JavaScript size, raw and gzip-compressed, as the browser loads it on first visit:
// the scripts and module preloads index.html names. Lazy chunks (one per page) are listed apart.
//
//   node scripts/bundle-report.mjs [--dist dist/insight-web] [--budget-kb 400]
//
// With --budget-kb it exits 1 when the initial gzip size is above the budget. Run `npm run build` first.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const args = process.argv.slice(2);
const option = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, option('--dist') ?? 'dist/insight-web');
const budgetKb = option('--budget-kb') ? Number(option('--budget-kb')) : undefined;

let html;
try {
  html = readFileSync(join(dist, 'index.html'), 'utf8');
} catch {
  console.error(`no ${join(dist, 'index.html')}: run "npm run build" first`);
  process.exit(2);
}

const initial = new Set();
for (const m of html.matchAll(/<script[^>]*\bsrc="([^"]+\.js)"/g)) initial.add(m[1]);
for (const m of html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+\.js)"/g)) initial.add(m[1]);
const css = [...html.matchAll(/<link[^>]*rel="stylesheet"[^>]*href="([^"]+\.css)"/g)].map((m) => m[1]);

function sizes(file) {
  const bytes = readFileSync(join(dist, file));
  return { file, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
}
const kb = (n) => `${(n / 1024).toFixed(1)} KiB`;
const row = (s) => `  ${s.file.padEnd(28)} ${kb(s.raw).padStart(11)} ${kb(s.gzip).padStart(11)}`;
const total = (list) => list.reduce((t, s) => ({ raw: t.raw + s.raw, gzip: t.gzip + s.gzip }), { raw: 0, gzip: 0 });

const initialSizes = [...initial].map(sizes).sort((a, b) => b.gzip - a.gzip);
const lazySizes = readdirSync(dist)
  .filter((f) => f.endsWith('.js') && !initial.has(f) && statSync(join(dist, f)).isFile())
  .map(sizes)
  .sort((a, b) => b.gzip - a.gzip);
const cssSizes = css.map(sizes);

console.log(`  ${'file'.padEnd(28)} ${'raw'.padStart(11)} ${'gzip'.padStart(11)}`);
console.log('initial JavaScript:');
initialSizes.forEach((s) => console.log(row(s)));
const init = total(initialSizes);
console.log(row({ file: 'total', ...init }));
console.log('styles:');
cssSizes.forEach((s) => console.log(row(s)));
console.log(`lazy JavaScript (${lazySizes.length} chunks):`);
console.log(row({ file: 'total', ...total(lazySizes) }));
console.log(`\ninitial JS gzip: ${kb(init.gzip)}${budgetKb ? ` (budget ${budgetKb} KiB)` : ''}`);
if (budgetKb && init.gzip > budgetKb * 1024) {
  console.error(`initial JS gzip ${kb(init.gzip)} is above the budget of ${budgetKb} KiB`);
  process.exit(1);
}
