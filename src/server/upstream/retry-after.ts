import { DAY } from '../../lib/utc';
/** `Retry-After` in seconds (delta form or HTTP date), or undefined when absent or unusable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\s*\d+\s*$/.test(value)) return Math.min(Number(value), DAY);
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.min(Math.ceil((date - now) / 1000), DAY));
}
