import { escapeHtml } from './escape';

describe('escapeHtml', () => {
  it('turnsMarkupIntoText', () => {
    expect(escapeHtml('<img src=x onerror=alert(1)>')).toBe('&lt;img src=x onerror=alert(1)&gt;');
    expect(escapeHtml(`"a" & 'b' \``)).toBe('&quot;a&quot; &amp; &#39;b&#39; &#96;');
  });

  it('leavesPlainTextAlone', () => {
    expect(escapeHtml('Source: words -> Calc')).toBe('Source: words -&gt; Calc');
    expect(escapeHtml('wordcount')).toBe('wordcount');
  });

  it('rendersNullAsEmpty', () => {
    expect(escapeHtml(null)).toBe('');
    expect(escapeHtml(undefined)).toBe('');
  });
});
