const integer = new Intl.NumberFormat('en');

/** "1,200" */
export function formatCount(value: number): string {
  return integer.format(value);
}

/** "1 event", "2 events" */
export function plural(count: number, word: string, pluralWord = `${word}s`): string {
  return `${formatCount(count)} ${count === 1 ? word : pluralWord}`;
}

/** "12.5%", "<0.1%" for a share too small to show, "0%" for none. */
export function formatShare(share: number): string {
  if (share === 0) return '0%';
  if (share < 0.001) return '<0.1%';
  return `${(share * 100).toFixed(1).replace(/\.0$/, '')}%`;
}
