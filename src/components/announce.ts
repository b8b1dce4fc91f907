/**
 * One polite live region for short confirmations such as "Copied", shared by the whole
 * page. A region per copy button put an element in every table row, created anew for each
 * row that scrolls in; this one is made on the first message. Screen readers announce a
 * change to a region that already exists, so the text is set a moment after the region
 * is made (or emptied, so that the same message twice is announced twice).
 */
let region: HTMLElement | null = null;
let pending: ReturnType<typeof setTimeout> | undefined;

const SETTLE_MS = 100;

export function announce(message: string): void {
  if (!region || !region.isConnected) {
    region = document.createElement('div');
    region.className = 'visually-hidden';
    region.setAttribute('role', 'status');
    document.body.append(region);
  }
  const target = region;
  target.textContent = '';
  clearTimeout(pending);
  pending = setTimeout(() => {
    target.textContent = message;
  }, SETTLE_MS);
}
