import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import { transactionQueryOptions } from '../../api/lookup';
import { eventOfRow } from '../../api/token';
import { Address } from '../../components/address';
import { LeftOut } from '../../components/bad-param';
import { CopyButton } from '../../components/copy-button';
import { EventKindBadge } from '../../components/event-kind-badge';
import { ExplorerLink } from '../../components/explorer-link';
import { paramRoute } from '../../components/param-route';
import { Price } from '../../components/price';
import { useSettings } from '../../components/settings';
import { EmptyState, ErrorState, SkeletonRows } from '../../components/states';
import { TimeCell } from '../../components/time-cell';
import { TokenIdLink } from '../../components/token-id';
import { useNow } from '../../components/use-now';
import { useTitle } from '../../components/use-title';
import { WashFlag } from '../../components/wash-flag';
import { parseAddress, shortenHex } from '../../lib/address';
import type { TransactionAnswer } from '../../lib/answers';
import { formatCount } from '../../lib/format';
import { Reasons, searchReading } from '../../lib/param-reading';
import { hrefs } from '../../lib/routes';
import styles from './transaction-page.module.css';

/** `/transactions/:hash`: a hash in any case; the canonical URL is lowercase, padded. */
export const TransactionRoute = paramRoute({
  params: { hash: ['This is not a transaction hash', parseAddress] },
  search: (params) => searchReading(params, [], new Reasons()),
  href: ({ hash }) => hrefs.transaction(hash),
  Page: TransactionPage,
});

/**
 * One transaction as the index holds it: every change of hands in it, across
 * collections, each with its price and wash-trade flag, its parties' wallets and its
 * token; the explorer for the rest of the transaction.
 */
export function TransactionPage({ hash }: { hash: string }) {
  useTitle(`Transaction ${shortenHex(hash)}`);
  const answer = useQuery(transactionQueryOptions(hash));
  return (
    <section aria-labelledby="transaction-title">
      <header className={styles.header}>
        <nav aria-label="Breadcrumb">
          <Link to={hrefs.contracts()}>Contracts</Link> › Transaction
        </nav>
        <h1 id="transaction-title">
          Transaction <span className="mono">{shortenHex(hash)}</span>
        </h1>
        <p className={styles.hash}>
          <span className="mono">{hash}</span>
          <CopyButton value={hash} label={`Copy transaction hash ${hash}`} />
          <ExplorerLink page="tx" value={hash} />
        </p>
      </header>
      <LeftOut />
      {answer.isPending ? (
        <SkeletonRows columns={4} rows={2} />
      ) : answer.isError ? (
        <ErrorState error={answer.error} onRetry={() => void answer.refetch()} />
      ) : answer.data.events.length === 0 ? (
        <EmptyState title="Not seen">
          The index holds no change of hands in this transaction: it moved no token of a collection
          read so far, or it is no transaction. The explorer shows what it did.
        </EmptyState>
      ) : (
        <Changes answer={answer.data} />
      )}
    </section>
  );
}

function Changes({ answer }: { answer: TransactionAnswer }) {
  const { timeZone } = useSettings();
  const nowMs = useNow();
  const navigate = useNavigate();
  const names = new Map(answer.collections.map((c) => [c.address, c.name]));
  const count = answer.events.length;
  return (
    <>
      <h2>
        {count === 1 ? 'One change of hands' : `${formatCount(count)} changes of hands`}
        {answer.collections.length > 1 &&
          ` in ${formatCount(answer.collections.length)} collections`}
      </h2>
      <ol className={styles.changes}>
        {answer.events.map((row) => {
          const event = eventOfRow(row);
          const name = names.get(event.contractAddress) ?? null;
          return (
            <li key={row.id} className={styles.change}>
              <div className={styles.line}>
                <EventKindBadge event={event} />
                <Link to={hrefs.contractEvents(event.contractAddress)}>
                  {name ?? `Contract ${shortenHex(event.contractAddress)}`}
                </Link>
                <span>
                  token{' '}
                  <TokenIdLink
                    contract={event.contractAddress}
                    tokenId={event.tokenId}
                    onOpen={() =>
                      void navigate(hrefs.tokenHistory(event.contractAddress, event.tokenId))
                    }
                  />
                </span>
                <TimeCell
                  seconds={event.timestamp}
                  display="absolute"
                  nowMs={nowMs}
                  zone={timeZone}
                />
              </div>
              <div className={styles.line}>
                <span>
                  from <Address value={event.from} wallet />
                </span>
                <span>
                  to <Address value={event.to} wallet />
                </span>
                {event.kind === 'sale' && (
                  <span>
                    for <Price event={row} />
                  </span>
                )}
                {event.washFlags && <WashFlag reasons={event.washFlags} />}
              </div>
            </li>
          );
        })}
      </ol>
    </>
  );
}
