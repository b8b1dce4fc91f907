import type { WalletCollection } from '../../lib/answers';
import { plural } from '../../lib/format';
import { walletTotals } from '../../lib/wallet-totals';
import { Figure, Results, Trades } from './wallet-collections';
import section from '../../components/section.module.css';
import styles from './wallet-page.module.css';

/**
 * The wallet at a glance, over every collection the index holds: tokens held now, what
 * it spent and received in each currency (never summed across currencies), how many of
 * its sales look like wash trades, and its realised result in each currency (each
 * collection's is on its card, `collectionsId`).
 */
export function WalletTotals({
  collections,
  collectionsId,
}: {
  collections: readonly WalletCollection[];
  collectionsId: string;
}) {
  const totals = walletTotals(collections);
  return (
    <section aria-labelledby="wallet-totals-title" className={styles.totals}>
      <h2 id="wallet-totals-title" className={section.heading}>
        Totals
      </h2>
      <dl className={styles.figures}>
        <Figure term="Held now">
          {plural(totals.holds, 'token')} in {plural(collections.length, 'collection')}
        </Figure>
        <Figure term="Spent">
          <Trades trades={totals.spent} />
        </Figure>
        <Figure term="Received">
          <Trades trades={totals.received} />
        </Figure>
        <Figure term="Trades flagged">
          {totals.flaggedSales === 0 ? (
            <span className="muted">none</span>
          ) : (
            plural(totals.flaggedSales, 'possible wash trade')
          )}
        </Figure>
        <Figure term="Realised result">
          <Results results={totals.results} />
          <a className={styles.totalsLink} href={`#${collectionsId}`}>
            Per collection
          </a>
        </Figure>
      </dl>
    </section>
  );
}
