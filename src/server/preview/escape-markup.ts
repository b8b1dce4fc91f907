/**
 * Text made safe inside HTML or SVG, as element text or a quoted attribute: markup
 * characters escaped, and characters XML forbids (control characters) dropped, so a
 * hostile collection name (`</title><script>…`) stays text and the SVG always parses.
 */
export function escapeMarkup(text: string): string {
  return (
    text
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
      .replace(/'/g, '&#39;')
  );
}
