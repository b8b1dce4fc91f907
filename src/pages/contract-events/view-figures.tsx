import type { Overview, ViewFigures, Volume } from '../../lib/answers';
import { formatCurrencyAmount } from '../../lib/currency-amount';
import { formatCount, plural } from '../../lib/format';
import { flaggedShares, formatFlaggedShares } from '../../lib/wash-share';

/** Currencies the line names; the others are counted (the header does the same). */
const SHOWN_CURRENCIES = 3;

/** The known currencies' volumes, shortened, and how many others there are. */
function volumeText(volumes: readonly Volume[]): string {
  const known = volumes.filter((v) => v.currency.state !== 'unknown').slice(0, SHOWN_CURRENCIES);
  const others = volumes.length - known.length;
  const amounts = known.map((v) => formatCurrencyAmount(v.volume, v.currency, 2));
  if (others > 0) amounts.push(plural(others, 'other currency', 'other currencies'));
  return amounts.join(', ');
}

/**
 * The view's own figures beside the whole history's, when a filter narrows the events:
 * its events and sales of all, its volume per currency, and its flagged sales with their
 * share of each currency's volume. Held in place ("…") while they load.
 */
export function ViewFiguresLine({
  figures,
  whole,
}: {
  figures: ViewFigures | null | undefined;
  whole: Overview | null | undefined;
}) {
  const of = (count: number | undefined) =>
    count === undefined ? '' : ` of ${formatCount(count)}`;
  const parts = figures
    ? [
        `${formatCount(figures.events)}${of(whole?.events)} events`,
        `${formatCount(figures.sales)}${of(whole?.sales)} sales`,
        figures.volume.length > 0 && `volume ${volumeText(figures.volume)}`,
        figures.washSales > 0 &&
          `${plural(figures.washSales, 'flagged sale', 'flagged sales')} (${formatFlaggedShares(
            flaggedShares(figures.volume, figures.washVolume, false),
          )})`,
      ].filter(Boolean)
    : ['…'];
  return (
    <p className="muted small" aria-busy={figures === undefined} aria-label="This view">
      This view: {figures === null ? 'nothing indexed yet' : parts.join(' · ')}
    </p>
  );
}
