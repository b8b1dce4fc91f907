import type { ReactNode } from 'react';
import { Address, type AddressFilter } from '../../components/address';
import { Badge } from '../../components/badge';
import { Amount, SignedAmount } from '../../components/amount';
import type { Custody, CustodyStep } from '../../lib/custody';
import type { EventKind } from '../../lib/token-event';
import { formatAbsolute, formatDuration, toIso } from '../../lib/time';
import styles from './custody-chain.module.css';

/** How an owner got the token: its badge, its words, and the colours of the event kind it was. */
const ACQUIRED: Record<CustodyStep['how'], { label: string; words: string; kind: EventKind }> = {
  minted: { label: 'Minted', words: 'Minted to', kind: 'mint' },
  bought: { label: 'Bought', words: 'Bought by', kind: 'sale' },
  received: { label: 'Received', words: 'Received by', kind: 'transfer' },
};

/** The dot of each step, in the colours of the kind the owner got the token by. */
const DOTS: Partial<Record<EventKind, string>> = { mint: styles.mint, sale: styles.sale };

function disposal(custody: Custody): ReactNode {
  const { disposed, heldSeconds } = custody;
  if (!disposed) return null;
  const held = heldSeconds === undefined ? '' : `held for ${formatDuration(heldSeconds)}, then `;
  switch (disposed.how) {
    case 'sold':
      return (
        <>
          {held}sold for {disposed.price && <Amount {...disposed.price} />}
        </>
      );
    case 'sent':
      return <>{held}sent on</>;
    case 'burned':
      return <>{held}burned</>;
  }
}

/**
 * The token's chain of custody as the server built it: each owner in turn, how they got
 * it (minted, bought at a price, received), how long they held it and how they let it go,
 * the realised result when they bought and sold in one currency, and flips; then the
 * holder now or the burn. An ordered list, so it reads top to bottom on a phone and in
 * order with a screen reader.
 */
export function CustodyChain({
  custody,
  owner,
  burned,
  complete,
  zone,
  filter,
}: {
  custody: readonly Custody[];
  owner: string | null;
  burned: boolean;
  /** Whether the history is the whole one (the token's own list was read). */
  complete: boolean;
  zone: 'utc' | 'local';
  filter: AddressFilter;
}) {
  // Every address links and copies as it does elsewhere.
  const address = (value: string) => <Address value={value} wallet filter={filter} copy />;
  return (
    <section aria-labelledby="custody-title" className={styles.section}>
      <h2 id="custody-title">Provenance</h2>
      <p className={`${styles.intro} muted`}>Each owner in turn: how they got it and let it go.</p>
      <ol className={styles.timeline}>
        {custody.map((step) => {
          const how = ACQUIRED[step.acquired.how];
          return (
            <li
              key={step.acquired.transactionHash + step.owner}
              className={`${styles.step} ${DOTS[how.kind] ?? ''}`}
            >
              <div className={styles.head}>
                <Badge tone={how.kind}>{how.label}</Badge>
                <time dateTime={toIso(step.acquired.at)}>
                  {formatAbsolute(step.acquired.at, zone)}
                </time>
                {step.flip && (
                  <span title="Bought and sold again within a day">
                    <Badge tone="burn">Flip</Badge>
                  </span>
                )}
              </div>
              <div className={styles.body}>
                {how.words} {address(step.owner)}
                {step.acquired.price && (
                  <>
                    {' '}
                    for <Amount {...step.acquired.price} />
                  </>
                )}
              </div>
              {step.disposed && (
                <div className={`${styles.held} muted`}>
                  {disposal(step)}
                  {step.result && (
                    <>
                      {' '}
                      · result <SignedAmount {...step.result} />
                    </>
                  )}
                </div>
              )}
            </li>
          );
        })}
        <li className={`${styles.step} ${styles.now}`}>
          <div className={styles.body}>
            {burned ? (
              <strong>Burned: the token no longer exists.</strong>
            ) : owner ? (
              <>
                <strong>Held now by</strong>{' '}
                <Address value={owner} wallet filter={filter} copy explore />
              </>
            ) : (
              <span className="muted">No holder known.</span>
            )}
            {!complete && <span className="muted"> (from stored data)</span>}
          </div>
        </li>
      </ol>
    </section>
  );
}
