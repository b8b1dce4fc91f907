import { useQuery } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { useNavigate } from 'react-router';
import { collectionQueryOptions, collectionSeriesQueryOptions } from '../../api/collection';
import { collectionMarketQueryOptions } from '../../api/market';
import { useWholeRefresh } from '../../api/use-whole-refresh';
import { ActivityChart } from '../../components/activity-chart';
import { LeftOut } from '../../components/bad-param';
import { CoverageNote } from '../../components/coverage-note';
import { DateRange } from '../../components/date-range';
import { paramRoute } from '../../components/param-route';
import { useSettings } from '../../components/settings';
import { EmptyState, ErrorState, RetryingNotice, SkeletonRows } from '../../components/states';
import { SubpageHeader, subpageTitleId } from '../../components/subpage-header';
import { TimeDisplayToggle } from '../../components/time-display-toggle';
import { useNow } from '../../components/use-now';
import { useTitle } from '../../components/use-title';
import { useViewSearch } from '../../components/use-view-search';
import { WashSwitch } from '../../components/wash-switch';
import { overviewShares } from '../../lib/wash-share';
import { activeSpan, chartRange, uncoveredNote } from '../../lib/activity';
import { parseAddress } from '../../lib/address';
import type { Coverage } from '../../lib/answers';
import { collectionTitle } from '../../lib/collection-title';
import {
  marketApiSearch,
  parseMarketSpan,
  parseMarketWash,
  readMarketSearch,
} from '../../lib/market-view';
import { hrefs } from '../../lib/routes';
import { formatSpan, formatSpanEnd, type TimeSpan } from '../../lib/time-span';
import { MarketplaceShares } from './marketplace-shares';
import { FirstSaleFigures, MintersFigures } from './mint-figures';
import { TopSales } from './top-sales';
import button from '../../components/button.module.css';
import section from '../../components/section.module.css';
import toolbar from '../../components/toolbar.module.css';
import styles from './market-page.module.css';

/** `/contracts/:address/market`: validates and canonicalises the URL, then shows the market. */
export const MarketRoute = paramRoute({
  params: { address: ['This is not a contract address', parseAddress] },
  search: readMarketSearch,
  href: ({ address }, search) => hrefs.market(address, search),
  Page: MarketPage,
});

const REFRESHED = ['market', 'series'] as const;

const whenOf = (span: TimeSpan | null) =>
  span ? `in ${formatSpan(span)}` : 'over the whole history';

/** Why a part of the answer is empty: nothing there, or not indexed yet. */
const notYet = (coverage: Coverage | undefined) =>
  coverage?.complete === false ? ' The indexer is still reading this collection’s history.' : '';

/**
 * A collection's market over its whole history or a span (in the URL): each currency's
 * top sales, each marketplace's share, mints over time, the minters still holding, and
 * how long minted tokens waited for their first sale.
 */
export function MarketPage({ address }: { address: string }) {
  const { params, set, display, setDisplay } = useViewSearch();
  const navigate = useNavigate();
  const { timeZone } = useSettings();
  const nowMs = useNow();
  const span = useMemo(() => parseMarketSpan(params), [params]);
  const excludeWash = parseMarketWash(params);
  const search = marketApiSearch(span, excludeWash ? { wash: 'exclude' } : {});

  const collectionQuery = useQuery(collectionQueryOptions(address));
  const collection = collectionQuery.data;
  const query = useQuery(collectionMarketQueryOptions(address, search));
  const answer = query.isPlaceholderData ? undefined : query.data;
  const range = chartRange(span, activeSpan(collection?.figures), nowMs / 1000);
  const seriesQuery = useQuery({
    ...collectionSeriesQueryOptions(
      address,
      marketApiSearch(span, { kind: 'mint' }),
      range.interval,
    ),
    enabled: collection !== undefined,
  });
  const coverage = collection?.coverage ?? query.data?.coverage;
  useWholeRefresh(address, coverage?.complete, REFRESHED);
  const name = collectionTitle(collection, address);
  const when = whenOf(span);
  useTitle(`${name} · market`);

  const setSpan = useCallback(
    (next: TimeSpan | null) =>
      set({
        from: next && formatSpanEnd(next.from),
        to: next && formatSpanEnd(next.to),
      }),
    [set],
  );
  const time = useMemo(() => ({ display, zone: timeZone, nowMs }), [display, timeZone, nowMs]);
  const openToken = useCallback(
    (tokenId: string) => void navigate(hrefs.tokenHistory(address, tokenId)),
    [navigate, address],
  );

  return (
    <section aria-labelledby={subpageTitleId('Market')}>
      <SubpageHeader address={address} name={name} page="Market" />
      <CoverageNote coverage={coverage} nowMs={nowMs} />
      <LeftOut />
      <div className={toolbar.toolbar}>
        <DateRange span={span} onChange={(from, to) => set({ from, to })} />
        <button
          type="button"
          className={button.secondary}
          disabled={span === null}
          onClick={() => setSpan(null)}
        >
          Whole history
        </button>
        <WashSwitch
          exclude={excludeWash}
          flagged={collection?.figures?.washSales}
          shares={overviewShares(collection?.figures)}
          onChange={(exclude) => set({ wash: exclude ? 'exclude' : null })}
        />
        <TimeDisplayToggle display={display} onChange={setDisplay} />
      </div>
      <p className={section.status} role="status" aria-live="polite">
        {query.isFetching && query.isPlaceholderData
          ? `Loading the market ${when}…`
          : `The market ${when}.`}
      </p>
      <RetryingNotice error={query.failureReason} failureCount={query.failureCount} />

      <h2 className={styles.heading}>Top sales per currency</h2>
      {query.isError && !query.data ? (
        <ErrorState error={query.error} onRetry={() => void query.refetch()} />
      ) : !answer ? (
        <SkeletonRows columns={6} rows={5} />
      ) : answer.topSales.length === 0 ? (
        <EmptyState title={`No sales ${when}`}>
          {`Sales with a price show here, the ten highest in each currency.${notYet(coverage)}`}
        </EmptyState>
      ) : (
        <TopSales address={address} groups={answer.topSales} time={time} onOpenToken={openToken} />
      )}

      <h2 className={styles.heading}>Marketplaces</h2>
      {!answer ? (
        query.isError ? null : (
          <SkeletonRows columns={4} rows={3} />
        )
      ) : answer.marketplaces.length === 0 ? (
        <EmptyState title={`No sales ${when}`}>{notYet(coverage).trim() || null}</EmptyState>
      ) : (
        <MarketplaceShares answer={answer} />
      )}

      <h2 className={styles.heading}>Mints over time</h2>
      <ActivityChart
        buckets={seriesQuery.data?.buckets ?? []}
        interval={seriesQuery.data?.interval ?? range.interval}
        range={range}
        onSelect={setSpan}
        selects="the market of the bar's time"
        kind="mint"
        withVolume={false}
        partial={uncoveredNote(coverage)}
        loading={seriesQuery.data === undefined}
      />
      <h2 className={styles.heading}>Minters</h2>
      {answer ? (
        <MintersFigures answer={answer} when={when} />
      ) : query.isError ? null : (
        <SkeletonRows columns={4} rows={1} />
      )}

      <h2 className={styles.heading}>Time from mint to first sale</h2>
      {answer ? (
        answer.minters.minted === 0 ? (
          <EmptyState title={`No token minted ${when}`}>
            {notYet(coverage).trim() || null}
          </EmptyState>
        ) : (
          <FirstSaleFigures answer={answer} when={when} />
        )
      ) : query.isError ? null : (
        <SkeletonRows columns={4} rows={2} />
      )}
      {answer && <p className={`${styles.counted} muted small`}>{answer.counted}</p>}
    </section>
  );
}
