const integer = new Intl.NumberFormat('en');

/** "1,200" */
export function formatCount(value: number): string {
  return integer.format(value);
}

/** "1 event", "2 events" */
export function plural(count: number, word: string, pluralWord = `${word}s`): string {
  return `${formatCount(count)} ${count === 1 ? word : pluralWord}`;
}
