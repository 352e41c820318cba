import { escapeHtml } from './escape';

describe('escapeHtml', () => {
  it('turns markup into text', () => {
    expect(escapeHtml('<img src=x onerror=alert(1)>')).toBe('&lt;img src=x onerror=alert(1)&gt;');
    expect(escapeHtml(`"a" & 'b' \``)).toBe('&quot;a&quot; &amp; &#39;b&#39; &#96;');
  });

  it('leaves plain text alone but for its markup characters', () => {
    expect(escapeHtml('Source: words -> Calc')).toBe('Source: words -&gt; Calc');
    expect(escapeHtml('wordcount')).toBe('wordcount');
  });

  it('renders null as the empty string', () => {
    expect(escapeHtml(null)).toBe('');
    expect(escapeHtml(undefined)).toBe('');
  });
});
