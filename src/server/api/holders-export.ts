import type { Holder } from '../../lib/answers';
import type { ExportRow } from '../../lib/export';
import { toIso } from '../../lib/time';

/**
 * The holders snapshot as a file (for an airdrop or a vote): one line per holder, largest
 * first, with the moment it is taken on every line, so a line copied elsewhere still says
 * when it was true.
 */
export const holderExportColumns = ['owner', 'tokens', 'since_utc', 'as_of_utc'] as const;

export const holderExportRow = (holder: Holder, asOf: number): ExportRow => ({
  owner: holder.owner,
  tokens: holder.tokens,
  since_utc: holder.since > 0 ? toIso(holder.since) : undefined,
  as_of_utc: toIso(asOf),
});

/**
 * `holders-0x12345678`, or `holders-0x12345678_asof-2025-06-29` for a snapshot taken at
 * a past moment. The day named is the last day it covers: a snapshot at midnight is the
 * end of the day before (the dashboard asks for the end of a day as the next midnight).
 */
export function holderExportName(address: string, asOf: number | undefined): string {
  const name = `holders-${address.slice(0, 10)}`;
  if (asOf === undefined) return name;
  return `${name}_asof-${toIso(Math.max(0, asOf - 1)).slice(0, 10)}`;
}
