import { flinkDashboardUrl, flinkJobUrl } from './overview.service';

const JOB = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';

describe('flinkDashboardUrl', () => {
  it("prefers the hub's same-origin copy, as a relative link", () => {
    expect(flinkDashboardUrl({ flinkDashboardPath: '/flink/', flinkWebUrl: 'http://127.0.0.1:8081' })).toBe('flink/');
  });

  it("falls back to Flink's own URL", () => {
    expect(flinkDashboardUrl({ flinkWebUrl: 'http://127.0.0.1:8081/' })).toBe('http://127.0.0.1:8081/');
    expect(flinkDashboardUrl({ flinkDashboardPath: null, flinkWebUrl: 'https://flink.example' })).toBe('https://flink.example');
  });

  it('never links a script or protocol-relative URL', () => {
    expect(flinkDashboardUrl({ flinkDashboardPath: '//evil.example/', flinkWebUrl: 'javascript:alert(1)//' })).toBeUndefined();
    expect(flinkDashboardUrl(undefined)).toBeUndefined();
  });
});

describe('flinkJobUrl', () => {
  it("links to the job's overview in Flink's dashboard", () => {
    expect(flinkJobUrl({ flinkWebUrl: 'http://127.0.0.1:8081/' }, JOB)).toBe(`http://127.0.0.1:8081/#/job/running/${JOB}/overview`);
    expect(flinkJobUrl({ flinkDashboardPath: '/flink/' }, JOB)).toBe(`flink/#/job/running/${JOB}/overview`);
  });

  it("is absent when the dashboard's URL is unknown", () => {
    expect(flinkJobUrl(undefined, JOB)).toBeUndefined();
    expect(flinkJobUrl(null, JOB)).toBeUndefined();
    expect(flinkJobUrl({}, JOB)).toBeUndefined();
  });

  it('never links a script URL or a malformed job id', () => {
    expect(flinkJobUrl({ flinkWebUrl: 'javascript:alert(1)//' }, JOB)).toBeUndefined();
    expect(flinkJobUrl({ flinkWebUrl: 'http://127.0.0.1:8081' }, '../../etc')).toBeUndefined();
  });
});
