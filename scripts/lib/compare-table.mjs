// Prints an /api/v1/compare answer (JSON on stdin) as a Markdown table: per row the statistic with its unit, per
// column the value, its change in % against the first column and the samples it rests on (n). Values are the API's
// numbers, rounded for reading: bytes in KiB, durations in ms, rates as they come.
import { readFileSync } from 'node:fs';

const answer = JSON.parse(readFileSync(0, 'utf8'));
const round = (v, unit) => {
  if (v == null) return '–';
  if (unit === 'bytes') return `${(v / 1024).toFixed(1)} KiB`;
  return `${Number(v.toFixed(Math.abs(v) >= 100 ? 0 : 1))} ${unit}`;
};
const change = (c) => (c == null ? '' : ` (${c > 0 ? '+' : ''}${c.toFixed(1)} %)`);
const setting = (s, key) => {
  if (!s) return 'unknown';
  const v = s[key];
  if (key === 'materializationIntervalMs') return s.changelog ? `${v / 1000} s` : 'n/a';
  return v === true ? 'on' : v === false ? 'off' : v == null ? 'unknown' : String(v);
};
const heads = answer.columns.map((c) => {
  const diff = answer.differences.map((k) => `${k}: ${setting(c.settings, k)}`).join(', ');
  return `${c.jobName ?? c.label}${diff ? ` (${diff})` : ''}`;
});
const lines = [`| Statistic | ${heads.join(' | ')} |`, `|---|${heads.map(() => '---:').join('|')}|`];
for (const row of answer.rows) {
  const cells = row.cells.map((c) => `${round(c.value, row.unit)}${change(c.changePercent)} n=${c.samples}`);
  lines.push(`| ${row.label} | ${cells.join(' | ')} |`);
}
const c0 = answer.columns[0];
console.log(lines.join('\n'));
console.log(`\nWindows: ${answer.columns.map((c) => `${c.jobName}: ${((c.to - c.from) / 60000).toFixed(1)} min`).join('; ')}.`);
console.log(`Common settings: ${['stateBackend', 'incremental', 'checkpointIntervalMs', 'checkpointMode', 'unaligned',
  'parallelism'].filter((k) => !answer.differences.includes(k)).map((k) => `${k}: ${setting(c0.settings, k)}${
  k === 'incremental' && c0.settings?.incrementalSource ? ` (${c0.settings.incrementalSource})` : ''}`).join(', ')}.`);
