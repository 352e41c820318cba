import { pageOf } from './pager';

describe('pageOf', () => {
  const items = Array.from({ length: 45 }, (_, i) => i);

  it('slices out the page asked for', () => {
    expect(pageOf(items, 0, 20)).toEqual(items.slice(0, 20));
    expect(pageOf(items, 2, 20)).toEqual([40, 41, 42, 43, 44]);
  });

  it('stays on the last page when the list shrinks below the page asked for', () => {
    expect(pageOf(items.slice(0, 10), 2, 20)).toEqual(items.slice(0, 10));
    expect(pageOf([], 3, 20)).toEqual([]);
  });
});
