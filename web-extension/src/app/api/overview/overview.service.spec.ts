import { flinkJobUrl } from './overview.service';

const JOB = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';

describe('flinkJobUrl', () => {
  it('linksToTheJobOverviewInFlinksDashboard', () => {
    expect(flinkJobUrl('http://127.0.0.1:8081/', JOB)).toBe(`http://127.0.0.1:8081/#/job/running/${JOB}/overview`);
  });

  it('isAbsentWhenTheDashboardUrlIsUnknown', () => {
    expect(flinkJobUrl(undefined, JOB)).toBeUndefined();
    expect(flinkJobUrl(null, JOB)).toBeUndefined();
  });

  it('neverLinksAScriptUrlOrAMalformedJobId', () => {
    expect(flinkJobUrl('javascript:alert(1)//', JOB)).toBeUndefined();
    expect(flinkJobUrl('http://127.0.0.1:8081', '../../etc')).toBeUndefined();
  });
});
