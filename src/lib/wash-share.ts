import type { Overview, Volume } from './answers';
import { currencyOfRef } from './chart-currency';
import { formatShare } from './format';

/** The flagged part of one currency's volume. */
export interface FlaggedShare {
  /** "ETH", "ETH (assumed)", "0x0123…cdef". */
  label: string;
  /** Flagged volume over the currency's whole volume, 0–1. */
  share: number;
}

/**
 * Each currency's flagged share of its volume, largest flagged volume's currency first
 * (as `washVolume` comes). `excluded`: `volume` leaves the flagged sales out, so they are
 * added back for the whole. Amounts stay in base units; only the ratio leaves them.
 */
export function flaggedShares(
  volume: readonly Volume[],
  washVolume: readonly Volume[],
  excluded: boolean,
): FlaggedShare[] {
  const key = (entry: Volume) => entry.currency.address ?? 'none';
  const totals = new Map(volume.map((entry) => [key(entry), BigInt(entry.volume)]));
  return washVolume.flatMap((entry) => {
    const flagged = BigInt(entry.volume);
    const whole = (totals.get(key(entry)) ?? 0n) + (excluded ? flagged : 0n);
    if (whole === 0n) return [];
    // Ten-thousandths: the exact ratio of two base-unit sums, rounded down once.
    const share = Number((flagged * 10_000n) / whole) / 10_000;
    return [{ label: currencyOfRef(entry.currency).label, share }];
  });
}

/** "4.1% of ETH volume, <0.1% of STRK volume"; '' for none. */
export const formatFlaggedShares = (shares: readonly FlaggedShare[]) =>
  shares.map((entry) => `${formatShare(entry.share)} of ${entry.label} volume`).join(', ');

/** The flagged shares of a collection's whole-history figures (none while they load). */
export const overviewShares = (figures: Overview | null | undefined): FlaggedShare[] =>
  figures ? flaggedShares(figures.volume, figures.washVolume, figures.washExcluded) : [];
