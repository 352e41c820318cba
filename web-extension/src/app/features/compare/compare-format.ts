import { CompareColumn, CompareResponse, CompareUnit, JobSettings, SettingKey } from '../../api/compare/compare.model';
import { formatBytes, formatMs, formatRate, MISSING } from '../../shared/format/units';

/** The settings a column can be headed with, in order, with how each reads. */
export const SETTING_LABELS: Readonly<Record<SettingKey, string>> = {
  stateBackend: 'state backend',
  incremental: 'incremental',
  changelog: 'changelog',
  materializationIntervalMs: 'materialization',
  checkpointIntervalMs: 'interval',
  checkpointMode: 'mode',
  unaligned: 'unaligned',
  parallelism: 'parallelism',
};

const SETTING_ORDER = Object.keys(SETTING_LABELS) as SettingKey[];

function onOff(v: boolean | null): string {
  return v == null ? 'unknown' : v ? 'on' : 'off';
}

/** One setting's value as the column heading shows it. */
export function formatSetting(settings: JobSettings | null, key: SettingKey): string {
  if (!settings) {
    return 'unknown';
  }
  switch (key) {
    case 'stateBackend':
      return settings.stateBackend ?? 'unknown';
    case 'incremental':
      return onOff(settings.incremental) + (settings.incrementalSource === 'cluster' ? ' (cluster default)'
        : settings.incrementalSource === 'observed' ? ' (observed)' : '');
    case 'changelog':
      return onOff(settings.changelog);
    case 'materializationIntervalMs':
      return settings.changelog ? formatMs(settings.materializationIntervalMs) : 'n/a';
    case 'checkpointIntervalMs':
      return settings.checkpointIntervalMs == null || settings.checkpointIntervalMs >= Number.MAX_SAFE_INTEGER
        ? 'none'
        : formatMs(settings.checkpointIntervalMs);
    case 'checkpointMode':
      return settings.checkpointMode?.toLowerCase().replace('_', ' ') ?? 'unknown';
    case 'unaligned':
      return onOff(settings.unaligned);
    case 'parallelism':
      return settings.parallelism == null ? 'unknown' : String(settings.parallelism);
  }
}

/** `key: value` pairs of a column's settings: the differing ones first (flagged), then the rest. */
export function settingLines(column: CompareColumn, differences: readonly SettingKey[]): { label: string; value: string; differs: boolean }[] {
  const keys = [...differences, ...SETTING_ORDER.filter((k) => !differences.includes(k))];
  return keys.map((k) => ({ label: SETTING_LABELS[k], value: formatSetting(column.settings, k), differs: differences.includes(k) }));
}

/** Up to 3 significant digits. */
function compact(value: number): string {
  const abs = Math.abs(value);
  return String(Number(value.toFixed(abs >= 100 ? 0 : abs >= 10 ? 1 : 2)));
}

/** A statistic's value with its unit, as the table shows it. */
export function formatStat(value: number | null, unit: CompareUnit): string {
  if (value == null || !Number.isFinite(value)) {
    return MISSING;
  }
  switch (unit) {
    case 'bytes':
      return formatBytes(value);
    case 'ms':
      return formatMs(value);
    case 'records/s':
      return formatRate(value);
    case '1/h':
      return `${compact(value)} /h`;
    case 'ms/s':
      return `${compact(value)} ms/s`;
  }
}

/** A change against the first column: `+12.5 %`, `−40 %`; empty when there is none. */
export function formatChange(change: number | null): string {
  if (change == null || !Number.isFinite(change)) {
    return '';
  }
  const sign = change > 0 ? '+' : change < 0 ? '−' : '±';
  return `${sign}${compact(Math.abs(change))} %`;
}

/** A column's heading as one line of text (CSV, Markdown): its label and what differs. */
export function columnTitle(column: CompareColumn, differences: readonly SettingKey[]): string {
  const diff = differences.map((k) => `${SETTING_LABELS[k]}: ${formatSetting(column.settings, k)}`).join(', ');
  return diff ? `${column.label} [${diff}]` : column.label;
}

function csvField(value: string): string {
  return /[",\n\r]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/**
 * A text field (a job's name is anyone's to choose): a leading `=`, `+`, `-`, `@`, tab or CR would make a
 * spreadsheet read it as a formula, so it gets a `'` in front (OWASP's advice for CSV injection).
 */
function csvText(value: string): string {
  return csvField(/^[=+\-@\t\r]/.test(value) ? `'${value}` : value);
}

/**
 * The table as CSV with the API's numbers unformatted: per column its value, the samples it rests on and the
 * change in % against the first column; the unit in its own column.
 */
export function toCsv(response: CompareResponse): string {
  const header = ['statistic', 'unit'];
  for (const c of response.columns) {
    const title = columnTitle(c, response.differences);
    header.push(`${title} value`, `${title} samples`, `${title} change %`);
  }
  const lines = [header.map(csvText).join(',')];
  for (const row of response.rows) {
    const fields = [csvText(row.label), csvText(row.unit)];
    for (const cell of row.cells) {
      fields.push(cell.value == null ? '' : String(cell.value), String(cell.samples),
        cell.changePercent == null ? '' : String(cell.changePercent));
    }
    lines.push(fields.join(',')); // the texts are quoted by csvText, the numbers need no quoting
  }
  return lines.join('\r\n') + '\r\n';
}

function mdCell(value: string): string {
  return value.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

/** The table as a Markdown table: formatted values, the change in %, and the samples (n). */
export function toMarkdown(response: CompareResponse): string {
  const header = ['Statistic', ...response.columns.map((c) => columnTitle(c, response.differences))];
  const lines = [
    `| ${header.map(mdCell).join(' | ')} |`,
    `|${header.map((_, i) => (i === 0 ? '---' : '---:')).join('|')}|`,
  ];
  for (const row of response.rows) {
    const cells = row.cells.map((cell) => {
      const change = formatChange(cell.changePercent);
      return `${formatStat(cell.value, row.unit)}${change ? ` (${change})` : ''} n=${cell.samples}`;
    });
    lines.push(`| ${[row.label, ...cells].map(mdCell).join(' | ')} |`);
  }
  return lines.join('\n') + '\n';
}
