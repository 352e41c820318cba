import { pageOf } from './pager';

describe('pageOf', () => {
  const items = Array.from({ length: 45 }, (_, i) => i);

  it('slicesThePage', () => {
    expect(pageOf(items, 0, 20)).toEqual(items.slice(0, 20));
    expect(pageOf(items, 2, 20)).toEqual([40, 41, 42, 43, 44]);
  });

  it('staysOnTheLastPageWhenTheListShrinks', () => {
    expect(pageOf(items.slice(0, 10), 2, 20)).toEqual(items.slice(0, 10));
    expect(pageOf([], 3, 20)).toEqual([]);
  });
});
