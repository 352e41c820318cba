const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
};

/**
 * Escapes text for HTML. ECharts tooltips are HTML strings, and job and operator names are user input (a job can be
 * named `<img src=x onerror=alert(1)>`): every name goes through here before it reaches a tooltip.
 */
export function escapeHtml(text: unknown): string {
  return String(text ?? '').replace(/[&<>"'`]/g, (c) => ENTITIES[c] ?? c);
}
