import type { TokenEvent } from '../../lib/token-event';
import { Address } from '../../components/address';
import { formatAbsolute } from '../../lib/time';
import type { Provenance } from '../../lib/provenance';
import { Badge } from '../../components/badge';
import styles from './provenance-summary.module.css';

/** Minted when and to whom, the current holder (or burned), and how many owners so far. */
export function ProvenanceSummary({
  provenance,
  complete,
}: {
  provenance: Provenance<TokenEvent>;
  complete: boolean;
}) {
  const { mint, currentOwner, burned, distinctOwners, holdings, sales } = provenance;
  return (
    <dl className={styles.summary}>
      <div>
        <dt>Minted</dt>
        <dd>
          {mint ? (
            <>
              {formatAbsolute(mint.timestamp)} to <Address value={mint.to} copy />
            </>
          ) : (
            <span className="muted">No mint among the {complete ? '' : 'loaded '}events</span>
          )}
        </dd>
      </div>
      <div>
        <dt>{burned ? 'Status' : 'Current holder'}</dt>
        <dd>
          {burned ? (
            <Badge tone="burn">Burned</Badge>
          ) : currentOwner ? (
            <Address value={currentOwner} copy />
          ) : (
            <span className="muted">Unknown</span>
          )}
          {!complete && <span className="muted"> (from the events loaded so far)</span>}
        </dd>
      </div>
      <div>
        <dt>Distinct owners</dt>
        <dd>{distinctOwners.toLocaleString('en')}</dd>
      </div>
      <div>
        <dt>Events</dt>
        <dd>
          {holdings.length.toLocaleString('en')} ({sales.toLocaleString('en')} sale
          {sales === 1 ? '' : 's'})
        </dd>
      </div>
    </dl>
  );
}
