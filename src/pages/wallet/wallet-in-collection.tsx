import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { walletCollectionQueryOptions } from '../../api/wallets';
import { Amount, SignedAmount } from '../../components/amount';
import { ColumnHeads } from '../../components/column-heads';
import { CoverageNote } from '../../components/coverage-note';
import {
  countFigures,
  FigureList,
  placeholderFigures,
  type Figure,
} from '../../components/figure-list';
import { HeldChart } from '../../components/held-chart';
import { EmptyState, ErrorState, RetryingNotice } from '../../components/states';
import { TimeCell } from '../../components/time-cell';
import { TokenIdLink } from '../../components/token-id';
import { shortenHex } from '../../lib/address';
import type { WalletInCollectionAnswer } from '../../lib/answers';
import { formatCurrencyAmount } from '../../lib/chart-currency';
import { formatCount, plural } from '../../lib/format';
import { hrefs } from '../../lib/routes';
import type { TimeZoneChoice } from '../../lib/time';
import type { TimeDisplay } from '../../lib/view-state';
import { Trades } from './wallet-collections';
import section from '../../components/section.module.css';
import styles from './wallet-page.module.css';

const FIGURES = [
  'Held now',
  'Changes of hands',
  'Mints received',
  'Bought',
  'Sold',
  'Transfers in',
  'Transfers out',
  'Burned',
  'Flips',
  'First activity',
  'Last activity',
];

const HOW = { minted: 'minted to it', bought: 'bought', received: 'received' } as const;

interface WalletInCollectionProps {
  address: string;
  collection: string;
  /** The collection's name as the wallet answer has it, until this answer says it. */
  name: string;
  display: TimeDisplay;
  zone: TimeZoneChoice;
  nowMs: number;
  /** Another wallet's page in the same collection. */
  walletHref: (wallet: string) => string;
  onOpen: (href: string) => void;
}

/**
 * One wallet inside one collection: its figures, the tokens it held over time, bought
 * and sold per currency, the realised result per currency (and what it leaves out), the
 * wallets it traded with most, and the tokens it holds now. Above its events there.
 */
export function WalletInCollection(props: WalletInCollectionProps) {
  const { address, collection, display, zone, nowMs, walletHref, onOpen } = props;
  const query = useQuery(walletCollectionQueryOptions(address, collection));
  const answer = query.data;
  const name = answer?.collection.name || props.name;
  const partial = answer && !answer.coverage.complete ? answer.coverage.statement : null;

  return (
    <section className={styles.inCollection} aria-labelledby="wallet-in-collection">
      <h2 className={section.heading} id="wallet-in-collection">
        In <Link to={hrefs.contractEvents(collection)}>{name}</Link>
      </h2>
      <p className={styles.links}>
        <Link to={hrefs.holders(collection)}>Holders of {name}</Link>
        <span aria-hidden="true"> · </span>
        <Link to={hrefs.wallet(address)}>All of this wallet’s collections</Link>
      </p>
      <CoverageNote coverage={answer?.coverage} nowMs={nowMs} />
      <RetryingNotice error={query.failureReason} failureCount={query.failureCount} />
      {query.isError ? (
        <ErrorState error={query.error} onRetry={() => void query.refetch()} />
      ) : answer && answer.changes === 0 ? (
        <EmptyState title="No activity in this collection">
          The index holds no change of hands to or from this wallet in {name}.
          {partial ? ` ${partial}` : ''}
        </EmptyState>
      ) : (
        <>
          <FigureList
            figures={answer ? figuresOf(answer, display, zone, nowMs) : placeholderFigures(FIGURES)}
            busy={answer === undefined}
            className={styles.walletFigures}
            label={`The wallet in ${name}`}
            itemClass={(label) =>
              label === 'Bought' || label === 'Sold' ? styles.wide : undefined
            }
          />
          <HeldChart
            held={answer?.held ?? []}
            interval={answer?.interval ?? 'day'}
            partial={partial}
            loading={answer === undefined}
          />
          {answer && (
            <>
              <Results answer={answer} />
              <Counterparties answer={answer} walletHref={walletHref} />
              <HeldTokens
                answer={answer}
                display={display}
                zone={zone}
                nowMs={nowMs}
                onOpen={onOpen}
              />
            </>
          )}
        </>
      )}
    </section>
  );
}

function figuresOf(
  answer: WalletInCollectionAnswer,
  display: TimeDisplay,
  zone: TimeZoneChoice,
  nowMs: number,
): Figure[] {
  const { counts } = answer;
  const time = (seconds: number | null) =>
    seconds === null ? (
      '—'
    ) : (
      <TimeCell seconds={seconds} display={display} nowMs={nowMs} zone={zone} />
    );
  return [
    ['Held now', plural(answer.holdsNow, 'token')],
    ...countFigures({ 'Changes of hands': answer.changes, 'Mints received': counts.mintsReceived }),
    ['Bought', <Trades key="bought" trades={answer.bought} />],
    ['Sold', <Trades key="sold" trades={answer.sold} />],
    ...countFigures({
      'Transfers in': counts.transfersIn,
      'Transfers out': counts.transfersOut,
      Burned: counts.burned,
      Flips: answer.flips,
    }),
    ['First activity', time(answer.firstActivity)],
    ['Last activity', time(answer.lastActivity)],
  ];
}

/** The realised result per currency, and the sales it leaves out. */
function Results({ answer }: { answer: WalletInCollectionAnswer }) {
  const { results, unknownCost, crossCurrency } = answer;
  return (
    <section aria-labelledby="wallet-results">
      <h3 className={styles.subheading} id="wallet-results">
        Realised result per currency
      </h3>
      {results.length === 0 ? (
        <p className="muted">
          No token bought here was later sold in the same currency: no result to give.
        </p>
      ) : (
        <ul className={styles.results}>
          {results.map((result) => {
            const currency = result.currency.address;
            return (
              <li key={currency} className={styles.card}>
                <FigureList
                  figures={[
                    [
                      'Result',
                      <SignedAmount
                        key="result"
                        units={result.result}
                        currency={currency}
                        assumed={result.assumed > 0}
                      />,
                    ],
                    ['Tokens', `${plural(result.tokens, 'token')} bought and sold`],
                    [
                      'Cost',
                      <Amount
                        key="cost"
                        units={result.cost}
                        currency={currency}
                        assumed={result.assumed > 0}
                      />,
                    ],
                    [
                      'Proceeds',
                      <Amount
                        key="proceeds"
                        units={result.proceeds}
                        currency={currency}
                        assumed={result.assumed > 0}
                      />,
                    ],
                    ['Flips', `${formatCount(result.flips)} held under 24 hours`],
                  ]}
                  busy={false}
                  className={styles.resultFigures}
                />
              </li>
            );
          })}
        </ul>
      )}
      {unknownCost.length > 0 && (
        <p className={styles.note}>
          Not in the result: sales of tokens that came by mint or transfer (no known cost):{' '}
          {unknownCost
            .map(
              (entry) =>
                `${plural(entry.sales, 'sale')} for ${formatCurrencyAmount(entry.amount, entry.currency)}`,
            )
            .join('; ')}
          .
        </p>
      )}
      {crossCurrency > 0 && (
        <p className={styles.note}>
          Not in the result: {plural(crossCurrency, 'token')} bought in one currency and sold in
          another (amounts in different currencies are never compared).
        </p>
      )}
      <p className={`muted small ${styles.note}`}>{answer.counted}</p>
    </section>
  );
}

/** The wallets it traded with most, each a link to that wallet in this collection. */
function Counterparties({
  answer,
  walletHref,
}: {
  answer: WalletInCollectionAnswer;
  walletHref: (wallet: string) => string;
}) {
  const { counterparties, counterpartyCount } = answer;
  return (
    <section aria-labelledby="wallet-counterparties">
      <h3 className={styles.subheading} id="wallet-counterparties">
        Main counterparties
      </h3>
      {counterparties.length === 0 ? (
        <p className="muted">No change of hands with another wallet (mints and burns only).</p>
      ) : (
        <table className={styles.table}>
          <caption className="muted small">
            {counterpartyCount > counterparties.length
              ? `The ${counterparties.length} it traded with most, of ${formatCount(counterpartyCount)}`
              : counterpartyCount === 1
                ? 'The one wallet it traded with'
                : `All ${formatCount(counterpartyCount)} wallets it traded with`}
            , by changes of hands between them
          </caption>
          <ColumnHeads
            columns={[
              ['Wallet'],
              ['Changes', styles.number],
              ['Bought from / sold to', styles.number],
              ['Received from / sent to', styles.number],
            ]}
          />
          <tbody>
            {counterparties.map((party) => (
              <tr key={party.address}>
                <th scope="row">
                  <Link
                    className="mono"
                    to={walletHref(party.address)}
                    title={party.address}
                    aria-label={`${shortenHex(party.address)}: wallet ${party.address} in this collection`}
                  >
                    {shortenHex(party.address)}
                  </Link>
                </th>
                <td className={styles.number}>{formatCount(party.changes)}</td>
                <td className={styles.number}>
                  {formatCount(party.boughtFrom)} / {formatCount(party.soldTo)}
                </td>
                <td className={styles.number}>
                  {formatCount(party.receivedFrom)} / {formatCount(party.sentTo)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** The tokens it holds now, the most recently acquired first, each a link to its page. */
function HeldTokens({
  answer,
  display,
  zone,
  nowMs,
  onOpen,
}: {
  answer: WalletInCollectionAnswer;
  display: TimeDisplay;
  zone: TimeZoneChoice;
  nowMs: number;
  onOpen: (href: string) => void;
}) {
  const { heldTokens, holdsNow, collection } = answer;
  return (
    <section aria-labelledby="wallet-held">
      <h3 className={styles.subheading} id="wallet-held">
        Tokens held now
      </h3>
      {heldTokens.length === 0 ? (
        <p className="muted">It holds none of this collection’s tokens now.</p>
      ) : (
        <>
          {holdsNow > heldTokens.length && (
            <p className="muted small">
              The {heldTokens.length} acquired most recently, of {formatCount(holdsNow)}.
            </p>
          )}
          <ul className={styles.heldTokens}>
            {heldTokens.map((token) => (
              <li key={token.tokenId}>
                <TokenIdLink
                  contract={collection.address}
                  tokenId={token.tokenId}
                  onOpen={() => onOpen(hrefs.tokenHistory(collection.address, token.tokenId))}
                />{' '}
                <span className="muted small">
                  {HOW[token.how]},{' '}
                  <TimeCell seconds={token.since} display={display} nowMs={nowMs} zone={zone} />
                </span>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
