import type { EventKind, TokenEvent } from '../../lib/token-event';
import { Address, type AddressFilter } from '../../components/address';
import { EventKindBadge } from '../../components/event-kind-badge';
import { Price } from '../../components/price';
import type { Provenance } from '../../lib/provenance';
import { formatAbsolute, formatDuration, toIso } from '../../lib/time';
import styles from './provenance-timeline.module.css';

/** The dot of each step: mints, sales and burns in their kind's colour, the rest as transfers. */
const STEP_CLASSES: Record<EventKind, string | undefined> = {
  mint: styles.mint,
  transfer: undefined,
  sale: styles.sale,
  burn: styles.burn,
  other: undefined,
};

/**
 * The token's life as a chain: mint, every change of hands with how long the previous
 * owner held it and the price of sales, then the current holder or the burn. An ordered
 * list, so it reads top to bottom on a phone and in order with a screen reader.
 */
export function ProvenanceTimeline({
  provenance,
  complete,
  zone,
  filter,
}: {
  provenance: Provenance<TokenEvent>;
  complete: boolean;
  zone: 'utc' | 'local';
  filter: AddressFilter;
}) {
  const { holdings, burned, currentOwner } = provenance;
  // Every address links and copies as it does elsewhere.
  const address = (value: string) => <Address value={value} filter={filter} copy />;
  return (
    <section aria-labelledby="timeline-title" className={styles.section}>
      <h2 id="timeline-title">Provenance</h2>
      <ol className={styles.timeline}>
        {holdings.map(({ event, heldFor }) => (
          <li key={event.key} className={`${styles.step} ${STEP_CLASSES[event.kind] ?? ''}`}>
            <div className={styles.head}>
              <EventKindBadge event={event} />
              <time dateTime={toIso(event.timestamp)}>{formatAbsolute(event.timestamp, zone)}</time>
            </div>
            <div className={styles.body}>
              {event.kind === 'mint' ? (
                <>Minted to {address(event.to)}</>
              ) : event.kind === 'burn' ? (
                <>Burned by {address(event.from)}</>
              ) : (
                <>
                  {address(event.from)} → {address(event.to)}
                </>
              )}
              {event.price && (
                <span>
                  {' '}
                  for <Price event={event} />
                  {event.marketplaceName && (
                    <span className="muted"> on {event.marketplaceName}</span>
                  )}
                </span>
              )}
            </div>
            {heldFor !== undefined && (
              <div className={`${styles.held} muted`}>then held for {formatDuration(heldFor)}</div>
            )}
          </li>
        ))}
        <li className={`${styles.step} ${styles.now}`}>
          <div className={styles.body}>
            {burned ? (
              <strong>Burned: the token no longer exists.</strong>
            ) : currentOwner ? (
              <>
                <strong>Held now by</strong>{' '}
                <Address value={currentOwner} filter={filter} copy explore />
              </>
            ) : (
              <span className="muted">No holder known.</span>
            )}
            {!complete && <span className="muted"> (from the events loaded so far)</span>}
          </div>
        </li>
      </ol>
    </section>
  );
}
