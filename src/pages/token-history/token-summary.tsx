import { Address, type AddressFilter } from '../../components/address';
import { Badge } from '../../components/badge';
import type { TokenPageAnswer } from '../../lib/answers';
import type { TokenEvent } from '../../lib/token-event';
import { formatAbsolute } from '../../lib/time';
import styles from './token-summary.module.css';

/**
 * Minted when and to whom, the holder now (or burned), how many owners so far and how
 * many changes of hands, as the server answered them. For a token of several copies
 * (ERC1155) it says plainly what these count.
 */
export function TokenSummary({
  answer,
  events,
  complete,
  filter,
  quantities,
}: {
  answer: TokenPageAnswer;
  /** The history, oldest first. */
  events: readonly TokenEvent[];
  /** Whether the history is the whole one (the token's own list was read). */
  complete: boolean;
  filter: AddressFilter;
  /** The token can have several copies (ERC1155): holder and owners ignore quantities. */
  quantities: boolean;
}) {
  const mint = events.find((event) => event.kind === 'mint');
  const sales = events.filter((event) => event.kind === 'sale').length;
  const owners = new Set(answer.custody.map((custody) => custody.owner)).size;
  return (
    <>
      <dl className={styles.summary}>
        <div>
          <dt>Minted</dt>
          <dd>
            {mint ? (
              <>
                {formatAbsolute(mint.timestamp)} to{' '}
                <Address value={mint.to} wallet filter={filter} copy explore />
              </>
            ) : (
              <span className="muted">No mint in the {complete ? '' : 'stored '}history</span>
            )}
          </dd>
        </div>
        <div>
          <dt>{answer.burned ? 'Status' : 'Current holder'}</dt>
          <dd>
            {answer.burned ? (
              <Badge tone="burn">Burned</Badge>
            ) : answer.owner ? (
              <Address value={answer.owner} wallet filter={filter} copy explore />
            ) : (
              <span className="muted">Unknown</span>
            )}
            {answer.since !== null && !answer.burned && (
              <span className="muted small"> since {formatAbsolute(answer.since)}</span>
            )}
          </dd>
        </div>
        <div>
          <dt>Distinct owners</dt>
          <dd>{owners.toLocaleString('en')}</dd>
        </div>
        <div>
          <dt>Events</dt>
          <dd>
            {events.length.toLocaleString('en')} ({sales.toLocaleString('en')} sale
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
