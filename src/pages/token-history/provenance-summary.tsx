import type { TokenEvent } from '../../lib/token-event';
import { Address, type AddressFilter } from '../../components/address';
import { formatAbsolute } from '../../lib/time';
import type { Provenance } from '../../lib/provenance';
import { Badge } from '../../components/badge';
import styles from './provenance-summary.module.css';

/**
 * Minted when and to whom, the current holder (or burned), and how many owners so far.
 * For a token of several copies (ERC1155) it says plainly what these count.
 */
export function ProvenanceSummary({
  provenance,
  complete,
  filter,
  quantities,
}: {
  provenance: Provenance<TokenEvent>;
  complete: boolean;
  filter: AddressFilter;
  /** The token can have several copies (ERC1155): holder and owners ignore quantities. */
  quantities: boolean;
}) {
  const { mint, currentOwner, burned, distinctOwners, holdings, sales } = provenance;
  return (
    <>
      <dl className={styles.summary}>
        <div>
          <dt>Minted</dt>
          <dd>
            {mint ? (
              <>
                {formatAbsolute(mint.timestamp)} to{' '}
                <Address value={mint.to} filter={filter} copy explore />
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
              <Address value={currentOwner} filter={filter} copy explore />
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
      {quantities && (
        <p className={`${styles.note} muted`}>
          This is an ERC1155 token: several wallets can hold copies of it at once. “Current holder”
          is the receiver of its last transfer and “Distinct owners” counts receivers; neither
          counts quantities.
        </p>
      )}
    </>
  );
}
