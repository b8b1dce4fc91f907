import { useQuery } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { Navigate, useLocation, useParams, useSearchParams } from 'react-router';
import { eventOfRow, tokenQueryOptions } from '../../api/token';
import type { AddressFilter } from '../../components/address';
import { BadParam } from '../../components/bad-param';
import { tokenEventColumns } from '../../components/event-table/event-columns';
import { EventTable } from '../../components/event-table/event-table';
import { ExportButtons } from '../../components/export-buttons';
import { useSettings } from '../../components/settings';
import { EmptyState, ErrorState, RetryingNotice, SkeletonRows } from '../../components/states';
import { TimeDisplayToggle } from '../../components/time-display-toggle';
import { useContract } from '../../components/use-contract';
import { collectionTitle } from '../../lib/collection-title';
import { useNow } from '../../components/use-now';
import { useTitle } from '../../components/use-title';
import { parseAddress } from '../../lib/address';
import type { TokenPageAnswer } from '../../lib/answers';
import { eventExportColumns, eventExportRow } from '../../lib/event-export';
import { EVENT_SORTS, sortEvents, type EventSort } from '../../lib/event-list';
import { hrefs } from '../../lib/routes';
import { parseTokenId, tokenIdToDecimal } from '../../lib/token-id';
import {
  canonicalEventSearch,
  formatSort,
  formatTimeDisplay,
  parseSort,
  parseTimeDisplay,
  updateSearch,
  type SortState,
} from '../../lib/view-state';
import { CustodyChain } from './custody-chain';
import { TokenCoverage } from './token-coverage';
import { shortTokenId, TokenHeader } from './token-header';
import { TokenSummary } from './token-summary';
import loadStatus from '../../components/load-status.module.css';
import toolbar from '../../components/toolbar.module.css';
import styles from './token-history-page.module.css';

/** `/contracts/:address/tokens/:tokenId`: decimal or hex ids; the canonical URL is decimal. */
export function TokenHistoryRoute() {
  const { address: rawAddress = '', tokenId: rawTokenId = '' } = useParams();
  const location = useLocation();
  const address = parseAddress(rawAddress);
  if (!address.ok) {
    return (
      <BadParam
        title="This is not a contract address"
        message={`“${rawAddress.slice(0, 100)}”: ${address.error}`}
      />
    );
  }
  const tokenId = parseTokenId(rawTokenId);
  if (!tokenId.ok) {
    return (
      <BadParam
        title="This is not a token id"
        message={`“${rawTokenId.slice(0, 100)}”: ${tokenId.error}`}
      />
    );
  }
  const decimal = tokenIdToDecimal(tokenId.value);
  const search = canonicalEventSearch(new URLSearchParams(location.search), EVENT_SORTS);
  if (address.value !== rawAddress || decimal !== rawTokenId || search !== location.search) {
    return <Navigate replace to={hrefs.tokenHistory(address.value, decimal, search)} />;
  }
  return (
    <TokenHistoryPage
      key={`${address.value}/${decimal}`}
      address={address.value}
      tokenId={decimal}
    />
  );
}

/**
 * One token: its whole history and chain of custody as the query API answers them, in
 * one request (the server reads the token's own list and joins a sale's two records).
 */
export function TokenHistoryPage({ address, tokenId }: { address: string; tokenId: string }) {
  const query = useQuery(tokenQueryOptions(address, tokenId));
  const contract = useContract(address);
  const answer = query.data;
  const type = contract?.type ?? answer?.events[0]?.contractType;
  useTitle(`Token ${shortTokenId(tokenId)} · ${collectionTitle(contract, address)}`);

  return (
    <section aria-labelledby="token-title">
      <TokenHeader address={address} contract={contract} tokenId={tokenId} type={type} />
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
          <TokenHistory answer={answer} address={address} tokenId={tokenId} type={type} />
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

function TokenHistory({
  answer,
  address,
  tokenId,
  type,
}: {
  answer: TokenPageAnswer;
  address: string;
  tokenId: string;
  type: string | undefined;
}) {
  const [params, setParams] = useSearchParams();
  const { timeZone, timeDisplay } = useSettings();
  const nowMs = useNow();
  const events = useMemo(() => answer.events.map(eventOfRow), [answer.events]);
  const sort = parseSort(params.get('sort'), EVENT_SORTS);
  const display = parseTimeDisplay(params.get('time')) ?? timeDisplay;
  const setSort = useCallback(
    (next: SortState<EventSort> | null) =>
      setParams((old) => updateSearch(old, { sort: formatSort(next) }), { replace: true }),
    [setParams],
  );
  // An address leads to the contract's events with it, as it filters them there.
  const addressFilter = useMemo<AddressFilter>(
    () => ({
      href: (value) => hrefs.contractEvents(address, `?address=${value}`),
      title: 'show the contract’s events with this address',
    }),
    [address],
  );
  const view = useMemo(
    () => ({ display, zone: timeZone, nowMs, activeAddress: null, addressFilter }),
    [display, timeZone, nowMs, addressFilter],
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
            <TimeDisplayToggle
              display={display}
              onChange={(next) =>
                setParams((old) => updateSearch(old, { time: formatTimeDisplay(next) }), {
                  replace: true,
                })
              }
            />
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
