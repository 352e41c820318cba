import { CompareResponse, JobSettings } from '../../api/compare/compare.model';
import { columnTitle, formatChange, formatSetting, formatStat, toCsv, toMarkdown } from './compare-format';

const SETTINGS: JobSettings = {
  checkpointing: true,
  stateBackend: 'EmbeddedRocksDBStateBackend',
  checkpointStorage: 'FileSystemCheckpointStorage',
  incremental: true,
  incrementalSource: 'job',
  changelog: false,
  materializationIntervalMs: 600_000,
  changelogStorage: null,
  checkpointIntervalMs: 3_000,
  checkpointMode: 'EXACTLY_ONCE',
  unaligned: false,
  parallelism: 1,
};

const RESPONSE: CompareResponse = {
  mode: 'jobs',
  differences: ['changelog'],
  columns: [
    { label: 'rocksdb (aaaaaaa)', jobId: 'a'.repeat(32), jobName: 'rocksdb', status: 'RUNNING', from: 0, to: 1, settings: SETTINGS, checkpoints: [] },
    { label: 'changelog, "gic" (bbbbbbb)', jobId: 'b'.repeat(32), jobName: 'changelog', status: 'RUNNING', from: 0, to: 1,
      settings: { ...SETTINGS, changelog: true, materializationIntervalMs: 60_000 }, checkpoints: [] },
  ],
  rows: [
    { key: 'duration_p50', label: 'Checkpoint duration P50', unit: 'ms', cells: [
      { value: 1_000, samples: 10, changePercent: null },
      { value: 500, samples: 12, changePercent: -50 },
    ] },
    { key: 'records_in', label: 'Records in per second', unit: 'records/s', cells: [
      { value: null, samples: 0, changePercent: null },
      { value: 2_000.5, samples: 3, changePercent: null },
    ] },
  ],
};

describe('compare format', () => {
  it('heads a column with the settings that differ', () => {
    expect(columnTitle(RESPONSE.columns[1], RESPONSE.differences)).toBe('changelog, "gic" (bbbbbbb) [changelog: on]');
    expect(formatSetting(RESPONSE.columns[1].settings, 'materializationIntervalMs')).toBe('1 min');
    expect(formatSetting(RESPONSE.columns[0].settings, 'materializationIntervalMs')).toBe('n/a');
    expect(formatSetting(RESPONSE.columns[0].settings, 'checkpointMode')).toBe('exactly once');
    expect(formatSetting(null, 'parallelism')).toBe('unknown');
    expect(formatSetting({ ...SETTINGS, incrementalSource: 'cluster' }, 'incremental')).toBe('on (cluster default)');
    expect(formatSetting({ ...SETTINGS, incrementalSource: 'observed' }, 'incremental')).toBe('on (observed)');
  });

  it('formats values with their units and changes with their sign', () => {
    expect(formatStat(1_500, 'ms')).toBe('1.5 s');
    expect(formatStat(3 * 1024 * 1024, 'bytes')).toBe('3 MiB');
    expect(formatStat(1_200, '1/h')).toBe('1200 /h');
    expect(formatStat(12.345, 'ms/s')).toBe('12.3 ms/s');
    expect(formatStat(null, 'ms')).toBe('–');
    expect(formatChange(-50)).toBe('−50 %');
    expect(formatChange(12.5)).toBe('+12.5 %');
    expect(formatChange(null)).toBe('');
  });

  it('exports the API numbers unformatted as CSV, with samples and change', () => {
    const lines = toCsv(RESPONSE).trimEnd().split('\r\n');
    expect(lines[0]).toBe('statistic,unit,rocksdb (aaaaaaa) [changelog: off] value,rocksdb (aaaaaaa) [changelog: off] samples,'
      + 'rocksdb (aaaaaaa) [changelog: off] change %,"changelog, ""gic"" (bbbbbbb) [changelog: on] value",'
      + '"changelog, ""gic"" (bbbbbbb) [changelog: on] samples","changelog, ""gic"" (bbbbbbb) [changelog: on] change %"');
    expect(lines[1]).toBe('Checkpoint duration P50,ms,1000,10,,500,12,-50');
    expect(lines[2]).toBe('Records in per second,records/s,,0,,2000.5,3,');
  });

  it('keeps a job name that starts like a formula from being read as one in a spreadsheet', () => {
    const hostile = { ...RESPONSE, columns: [{ ...RESPONSE.columns[0], label: '=HYPERLINK("x")' }, RESPONSE.columns[1]] };
    const header = toCsv(hostile).split('\r\n')[0];
    expect(header).toContain(`"'=HYPERLINK(""x"") [changelog: off] value"`);
    expect(toCsv(hostile).split('\r\n')[1]).toBe('Checkpoint duration P50,ms,1000,10,,500,12,-50');
    const withComma = { ...RESPONSE, rows: [{ ...RESPONSE.rows[0], label: 'Full size, last checkpoint' }] };
    expect(toCsv(withComma).split('\r\n')[1]).toBe('"Full size, last checkpoint",ms,1000,10,,500,12,-50');
  });

  it('exports a Markdown table with units, changes and samples', () => {
    const lines = toMarkdown(RESPONSE).trimEnd().split('\n');
    expect(lines[0]).toBe('| Statistic | rocksdb (aaaaaaa) [changelog: off] | changelog, "gic" (bbbbbbb) [changelog: on] |');
    expect(lines[1]).toBe('|---|---:|---:|');
    expect(lines[2]).toBe('| Checkpoint duration P50 | 1 s n=10 | 500 ms (−50 %) n=12 |');
    expect(lines[3]).toBe('| Records in per second | – n=0 | 2k /s n=3 |');
  });
});
