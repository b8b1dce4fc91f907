import type {
  AlsoHeld,
  CurrencyRef,
  Holder,
  HolderChange,
  MomentFigures,
  OverlapHolder,
} from '../../lib/answers';
import type { ExportRow } from '../../lib/export';
import { toIso } from '../../lib/time';
import type { EventKind } from '../../lib/token-event';

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

/** The collections the holders also hold, as a file; the moment taken on every line. */
export const alsoHoldExportColumns = [
  'address',
  'name',
  'symbol',
  'holders_in_common',
  'share',
  'their_holders',
  'their_share',
  'tokens',
  'as_of_utc',
] as const;

export const alsoHoldExportRow = (held: AlsoHeld, asOf: number): ExportRow => ({
  address: held.address,
  name: held.name ?? undefined,
  symbol: held.symbol ?? undefined,
  holders_in_common: held.inCommon,
  share: held.share,
  their_holders: held.holders,
  their_share: held.theirShare,
  tokens: held.tokens,
  as_of_utc: toIso(asOf),
});

/** The wallets that hold both collections. */
export const overlapExportColumns = ['owner', 'tokens', 'other_tokens', 'as_of_utc'] as const;

export const overlapExportRow = (holder: OverlapHolder, asOf: number): ExportRow => ({
  owner: holder.owner,
  tokens: holder.tokens,
  other_tokens: holder.otherTokens,
  as_of_utc: toIso(asOf),
});

/** The holders whose count changed between two moments, both named on every line. */
export const compareExportColumns = [
  'owner',
  'tokens_from',
  'tokens_to',
  'change',
  'from_utc',
  'to_utc',
] as const;

export const compareExportRow = (row: HolderChange, from: number, to: number): ExportRow => ({
  owner: row.owner,
  tokens_from: row.from,
  tokens_to: row.to,
  change: row.change,
  from_utc: toIso(from),
  to_utc: toIso(to),
});

/** The collection's figures at both moments, one line a figure (volumes one per currency). */
export const compareFiguresColumns = ['figure', 'currency', 'from', 'to'] as const;

export function compareFiguresRows(figures: {
  from: MomentFigures;
  to: MomentFigures;
}): ExportRow[] {
  const { from, to } = figures;
  const line = (figure: string, a: number | string, b: number | string): ExportRow => ({
    figure,
    from: a,
    to: b,
  });
  const rows = [
    line('holders', from.totalHolders, to.totalHolders),
    line('tokens_held', from.tokensHeld, to.tokensHeld),
    line('top10_share', from.top10Share, to.top10Share),
    line('known_burns', from.knownBurned, to.knownBurned),
    line('events', from.activity.events, to.activity.events),
    ...Object.keys(from.activity.counts).map((kind) =>
      line(
        kind === 'other' ? 'other_events' : `${kind}s`,
        from.activity.counts[kind as EventKind],
        to.activity.counts[kind as EventKind],
      ),
    ),
  ];
  const currencies = new Map<string, CurrencyRef>();
  for (const v of [...from.activity.volume, ...to.activity.volume])
    currencies.set(v.currency.address, v.currency);
  for (const [address, currency] of currencies) {
    const at = (f: MomentFigures) => f.activity.volume.find((v) => v.currency.address === address);
    const name = currency.state === 'known' ? currency.symbol : address;
    rows.push(
      { ...line('sales', at(from)?.sales ?? 0, at(to)?.sales ?? 0), currency: name },
      {
        ...line('volume_base_units', at(from)?.volume ?? '0', at(to)?.volume ?? '0'),
        currency: name,
      },
    );
  }
  return rows;
}

/** `holders-0x12345678_compare-2025-06-01_2025-06-29[_figures]`: the last days covered. */
export function compareExportName(
  address: string,
  from: number,
  to: number,
  part: 'holders' | 'figures',
): string {
  const day = (moment: number) => toIso(Math.max(0, moment - 1)).slice(0, 10);
  return `holders-${address.slice(0, 10)}_compare-${day(from)}_${day(to)}${part === 'figures' ? '_figures' : ''}`;
}
