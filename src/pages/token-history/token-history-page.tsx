import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { queryKeys } from '../../api/query-keys';
import { eventOfRow, liveTokenPath, tokenQueryOptions } from '../../api/token';
import type { AddressFilter } from '../../components/address';
import { tokenEventColumns } from '../../components/event-table/event-columns';
import { EventTable } from '../../components/event-table/event-table';
import { LeftOut } from '../../components/bad-param';
import { ExportButtons } from '../../components/export-buttons';
import { FeedLink } from '../../components/feed-link';
import { paramRoute } from '../../components/param-route';
import { useSettings } from '../../components/settings';
import { EmptyState, ErrorState, RetryingNotice, SkeletonRows } from '../../components/states';
import { TimeDisplayToggle } from '../../components/time-display-toggle';
import { useContract } from '../../components/use-contract';
import { collectionTitle } from '../../lib/collection-title';
import { useNow } from '../../components/use-now';
import { useNewRows } from '../../components/use-new-rows';
import { useTitle } from '../../components/use-title';
import { useViewSearch } from '../../components/use-view-search';
import { parseAddress } from '../../lib/address';
import type { TokenPageAnswer } from '../../lib/answers';
import { eventExportColumns, eventExportRow } from '../../lib/event-export';
import { EVENT_SORTS, sortEvents } from '../../lib/event-list';
import { ok, type Parsed } from '../../lib/result';
import { hrefs } from '../../lib/routes';
import { parseTokenId, tokenIdToDecimal } from '../../lib/token-id';
import { readSort, readTimeDisplay, Reasons, searchReading } from '../../lib/param-reading';
import { formatSort, formatTimeDisplay, parseSort } from '../../lib/view-state';
import { CustodyChain } from './custody-chain';
import { TokenCoverage } from './token-coverage';
import { shortTokenId, TokenHeader } from './token-header';
import { TokenSummary } from './token-summary';
import loadStatus from '../../components/load-status.module.css';
import toolbar from '../../components/toolbar.module.css';
import styles from './token-history-page.module.css';

/** A token id in decimal or hex, as its canonical text: decimal. */
const readTokenId = (raw: string): Parsed<string> => {
  const id = parseTokenId(raw);
  return id.ok ? ok(tokenIdToDecimal(id.value)) : id;
};

/** The history's sort (the browser sorts it) and the time display. */
function readTokenSearch(params: URLSearchParams) {
  const reasons = new Reasons();
  const sort = readSort(params.get('sort'), EVENT_SORTS, 'the history oldest first');
  return searchReading(
    params,
    [
      ['sort', formatSort(reasons.take(sort))],
      ['time', formatTimeDisplay(reasons.take(readTimeDisplay(params.get('time'))))],
    ],
    reasons,
  );
}

/** `/contracts/:address/tokens/:tokenId`: decimal or hex ids; the canonical URL is decimal. */
export const TokenHistoryRoute = paramRoute({
  params: {
    address: ['This is not a contract address', parseAddress],
    tokenId: ['This is not a token id', readTokenId],
  },
  search: readTokenSearch,
  href: ({ address, tokenId }, search) => hrefs.tokenHistory(address, tokenId, search),
  Page: TokenHistoryPage,
});

/**
 * One token: its whole history and chain of custody as the query API answers them, in
 * one request (the server reads the token's own list and joins a sale's two records).
 */
export function TokenHistoryPage({ address, tokenId }: { address: string; tokenId: string }) {
  const query = useQuery(tokenQueryOptions(address, tokenId));
  const freshSince = useNewTokenEvents(address, tokenId, query.data);
  const contract = useContract(address);
  const answer = query.data;
  const type = contract?.type ?? answer?.events[0]?.contractType;
  useTitle(`Token ${shortTokenId(tokenId)} · ${collectionTitle(contract, address)}`);

  return (
    <section aria-labelledby="token-title">
      <TokenHeader address={address} contract={contract} tokenId={tokenId} type={type} />
      <LeftOut />
      <RetryingNotice error={query.failureReason} failureCount={query.failureCount} />
      {answer ? (
        <>
          {query.isRefetchError && (
            <ErrorState
              error={query.error}
              onRetry={() => void query.refetch()}
              context="The history below is the one read before."
              compact
            />
          )}
          <TokenHistory
            answer={answer}
            address={address}
            tokenId={tokenId}
            type={type}
            freshSince={freshSince}
          />
        </>
      ) : query.isError ? (
        <ErrorState error={query.error} onRetry={() => void query.refetch()} />
      ) : (
        <>
          <p className={loadStatus.status} role="status">
            Reading the token’s history…
          </p>
          <SkeletonRows columns={6} rows={4} />
        </>
      )}
    </section>
  );
}

/**
 * The token's new changes of hands from its live stream: the answer is asked again (its
 * holder, custody and figures are the server's to work out), and rows newer than the
 * newest it showed are marked new. The history is sorted here, so any sort takes them.
 */
function useNewTokenEvents(address: string, tokenId: string, answer: TokenPageAnswer | undefined) {
  const queryClient = useQueryClient();
  const refetch = useCallback(
    () => void queryClient.invalidateQueries({ queryKey: queryKeys.token(address, tokenId) }),
    [queryClient, address, tokenId],
  );
  return useNewRows({
    path: liveTokenPath(address, tokenId),
    viewKey: `${address}/${tokenId}`,
    fit: () => 'place',
    place: () =>
      answer ? answer.events.reduce((newest, row) => Math.max(newest, row.timestamp), 0) : null,
    follow: refetch,
    reload: refetch,
  }).freshSince;
}

function TokenHistory({
  answer,
  address,
  tokenId,
  type,
  freshSince,
}: {
  answer: TokenPageAnswer;
  address: string;
  tokenId: string;
  type: string | undefined;
  /** Rows after this time came live: marked new. */
  freshSince: number | null;
}) {
  const { params, setSort, display, setDisplay } = useViewSearch();
  const { timeZone } = useSettings();
  const nowMs = useNow();
  const events = useMemo(() => answer.events.map(eventOfRow), [answer.events]);
  const sort = parseSort(params.get('sort'), EVENT_SORTS);
  // Beside each address, a filter to the contract's events with it.
  const addressFilter = useMemo<AddressFilter>(
    () => ({
      href: (value) => hrefs.contractEvents(address, `?address=${value}`),
      title: 'Show the collection’s events with',
    }),
    [address],
  );
  const view = useMemo(
    () => ({ display, zone: timeZone, nowMs, activeAddress: null, addressFilter, freshSince }),
    [display, timeZone, nowMs, addressFilter, freshSince],
  );
  const complete = answer.tokenList.read;

  if (events.length === 0) {
    return (
      <EmptyState title="No history for this token">
        <span>
          {answer.tokenList.read
            ? `The Token Events Service lists no event of token ${tokenId} in this collection: it was never minted or moved here.`
            : answer.tokenList.failure}
        </span>
        <span>
          {answer.coverage.complete
            ? 'The collection is fully indexed, and none of its events is of this token.'
            : `The collection is not fully indexed: ${answer.coverage.statement}`}
        </span>
      </EmptyState>
    );
  }
  return (
    <>
      <TokenCoverage answer={answer} />
      <TokenSummary
        answer={answer}
        events={events}
        complete={complete}
        filter={addressFilter}
        quantities={type === 'ERC1155'}
      />
      <div className={styles.columns}>
        <div className={styles.events}>
          <div className={toolbar.toolbar}>
            <ExportButtons
              rows={() => sortEvents(answer.events, sort).map(eventExportRow)}
              columns={eventExportColumns}
              fileName={`token-${tokenId.slice(0, 20)}`}
              meta={{ contract: address, tokenId, complete }}
            />
            <FeedLink />
            <TimeDisplayToggle display={display} onChange={setDisplay} />
          </div>
          <EventTable
            caption={`History of token ${tokenId}, oldest first`}
            rows={events}
            columns={tokenEventColumns}
            sort={sort}
            onSortChange={setSort}
            view={view}
          />
        </div>
        <CustodyChain
          custody={answer.custody}
          owner={answer.owner}
          burned={answer.burned}
          complete={complete}
          zone={timeZone}
          filter={addressFilter}
        />
      </div>
    </>
  );
}
