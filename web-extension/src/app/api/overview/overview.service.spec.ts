import { flinkDashboardUrl, flinkJobUrl } from './overview.service';

const JOB = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';

describe('flinkDashboardUrl', () => {
  it('prefersTheHubsSameOriginCopyAsARelativeLink', () => {
    expect(flinkDashboardUrl({ flinkDashboardPath: '/flink/', flinkWebUrl: 'http://127.0.0.1:8081' })).toBe('flink/');
  });

  it('fallsBackToFlinksOwnUrl', () => {
    expect(flinkDashboardUrl({ flinkWebUrl: 'http://127.0.0.1:8081/' })).toBe('http://127.0.0.1:8081/');
    expect(flinkDashboardUrl({ flinkDashboardPath: null, flinkWebUrl: 'https://flink.example' })).toBe('https://flink.example');
  });

  it('neverLinksAScriptOrProtocolRelativeUrl', () => {
    expect(flinkDashboardUrl({ flinkDashboardPath: '//evil.example/', flinkWebUrl: 'javascript:alert(1)//' })).toBeUndefined();
    expect(flinkDashboardUrl(undefined)).toBeUndefined();
  });
});

describe('flinkJobUrl', () => {
  it('linksToTheJobOverviewInFlinksDashboard', () => {
    expect(flinkJobUrl({ flinkWebUrl: 'http://127.0.0.1:8081/' }, JOB)).toBe(`http://127.0.0.1:8081/#/job/running/${JOB}/overview`);
    expect(flinkJobUrl({ flinkDashboardPath: '/flink/' }, JOB)).toBe(`flink/#/job/running/${JOB}/overview`);
  });

  it('isAbsentWhenTheDashboardUrlIsUnknown', () => {
    expect(flinkJobUrl(undefined, JOB)).toBeUndefined();
    expect(flinkJobUrl(null, JOB)).toBeUndefined();
    expect(flinkJobUrl({}, JOB)).toBeUndefined();
  });

  it('neverLinksAScriptUrlOrAMalformedJobId', () => {
    expect(flinkJobUrl({ flinkWebUrl: 'javascript:alert(1)//' }, JOB)).toBeUndefined();
    expect(flinkJobUrl({ flinkWebUrl: 'http://127.0.0.1:8081' }, '../../etc')).toBeUndefined();
  });
});
