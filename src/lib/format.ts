const integer = new Intl.NumberFormat('en');

/** "1,200" */
export function formatCount(value: number): string {
  return integer.format(value);
}

/** "1 event", "2 events" */
export function plural(count: number, word: string, pluralWord = `${word}s`): string {
  return `${formatCount(count)} ${count === 1 ? word : pluralWord}`;
}

/**
 * Sale prices are integer strings in the token's smallest unit (18 decimals on Starknet's
 * ETH and STRK). Shown as a decimal with up to `digits` fraction digits, without floats.
 */
export function formatUnits(raw: string, decimals = 18, digits = 4): string {
  if (!/^[0-9]+$/.test(raw)) return raw;
  const value = BigInt(raw);
  const base = 10n ** BigInt(decimals);
  const whole = value / base;
  const fraction = (value % base).toString().padStart(decimals, '0').slice(0, digits);
  const trimmed = fraction.replace(/0+$/, '');
  if (whole === 0n && trimmed === '' && value > 0n) return `< 0.${'0'.repeat(digits - 1)}1`;
  return trimmed ? `${integer.format(whole)}.${trimmed}` : integer.format(whole);
}
