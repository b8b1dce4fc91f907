import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useCallback, useMemo } from 'react';
import { useLocation, useParams, useSearchParams } from 'react-router';
import { collectionQueryOptions } from '../../api/collection';
import { collectionHoldersQueryOptions, holdersExportHref } from '../../api/holders';
import { useServerList } from '../../api/use-server-list';
import { useWholeRefresh } from '../../api/use-whole-refresh';
import { BadParam, CanonicalRedirect, LeftOut } from '../../components/bad-param';
import { CoverageNote } from '../../components/coverage-note';
import { ServerListTable } from '../../components/server-list-table';
import { SubpageHeader, subpageTitleId } from '../../components/subpage-header';
import { LoadStatus } from '../../components/load-status';
import { useSettings } from '../../components/settings';
import { EmptyState, ErrorState, RetryingNotice, SkeletonRows } from '../../components/states';
import { TimeDisplayToggle } from '../../components/time-display-toggle';
import { useNow } from '../../components/use-now';
import { useTitle } from '../../components/use-title';
import { parseAddress } from '../../lib/address';
import type { Holder } from '../../lib/answers';
import { collectionTitle } from '../../lib/collection-title';
import { holdersApiSearch, readHoldersSearch, readHoldersView } from '../../lib/holders-view';
import { hrefs } from '../../lib/routes';
import { formatDay } from '../../lib/time';
import { formatTimeDisplay, parseTimeDisplay, updateSearch } from '../../lib/view-state';
import { AsOfField } from './as-of-field';
import { HolderCells, holderColumns } from './holder-columns';
import { HoldersFigures } from './holders-figures';
import { HoldersViewsNav } from './holders-views-nav';
import button from '../../components/button.module.css';
import section from '../../components/section.module.css';
import toolbar from '../../components/toolbar.module.css';
import styles from './holders-page.module.css';
import { DAY } from '../../lib/utc';
import { formatUtcDay } from '../../lib/utc';

/** `/contracts/:address/holders`: validates and canonicalises the URL, then shows the holders. */
export function HoldersRoute() {
  const { address: raw = '' } = useParams();
  const location = useLocation();
  const nowMs = useNow();
  const parsed = parseAddress(raw);
  if (!parsed.ok) {
    return (
      <BadParam
        title="This is not a contract address"
        message={`“${raw.slice(0, 100)}”: ${parsed.error}`}
      />
    );
  }
  const reading = readHoldersSearch(new URLSearchParams(location.search), nowMs);
  if (parsed.value !== raw || reading.search !== location.search) {
    return <CanonicalRedirect to={hrefs.holders(parsed.value, reading.search)} reading={reading} />;
  }
  return <HoldersPage key={parsed.value} address={parsed.value} />;
}

/** "now", or "at the end of 29 Jun 2025" for a day's UTC midnight. */
const whenOf = (day: number | null) => (day === null ? 'now' : `at the end of ${formatDay(day)}`);

const holderKey = (holder: Holder) => holder.owner;
const HOLDERS = ['holders'] as const;

const AlsoHoldView = lazy(() =>
  import('./also-hold-view').then((module) => ({ default: module.AlsoHoldView })),
);
const OverlapView = lazy(() =>
  import('./overlap-view').then((module) => ({ default: module.OverlapView })),
);
const CompareView = lazy(() =>
  import('./compare-view').then((module) => ({ default: module.CompareView })),
);

const VIEW_TITLES = {
  holders: '',
  'also-hold': ' · also hold',
  overlap: ' · overlap',
  compare: ' · two days compared',
} as const;

/**
 * A collection's holders page: its header and coverage, the views' links, and the view
 * the URL names (the holders themselves, or one of the views beside them, each loaded
 * when first shown).
 */
export function HoldersPage({ address }: { address: string }) {
  const [params] = useSearchParams();
  const nowMs = useNow();
  const state = readHoldersView(params, nowMs);
  const collectionQuery = useQuery(collectionQueryOptions(address));
  const collection = collectionQuery.data;
  const name = collectionTitle(collection, address);
  const coverage = collection?.coverage;
  useWholeRefresh(address, coverage?.complete, HOLDERS);
  const asOf =
    state.view === 'holders' && state.asOf !== null ? ` as of ${formatUtcDay(state.asOf)}` : '';
  useTitle(`${name} · holders${VIEW_TITLES[state.view]}${asOf}`);
  return (
    <section aria-labelledby={subpageTitleId('Holders')}>
      <SubpageHeader address={address} name={name} page="Holders" />
      <CoverageNote coverage={coverage} nowMs={nowMs} />
      <LeftOut />
      <HoldersViewsNav address={address} view={state.view} />
      {state.view === 'holders' ? (
        <HoldersList address={address} day={state.asOf} />
      ) : (
        <Suspense fallback={<SkeletonRows columns={4} />}>
          {state.view === 'also-hold' && <AlsoHoldView address={address} />}
          {state.view === 'overlap' && <OverlapView address={address} other={state.with} />}
          {state.view === 'compare' && <CompareView address={address} days={state.compare} />}
        </Suspense>
      )}
    </section>
  );
}

/**
 * The holders, now or as of the end of a UTC day: the figures and spread of
 * the whole answer, every holder largest first (paged by the server's cursor), and the
 * same snapshot as a CSV file. The URL holds the day, so a reload or a shared link shows
 * the same rows.
 */
function HoldersList({ address, day }: { address: string; day: number | null }) {
  const [params, setParams] = useSearchParams();
  const { timeZone, timeDisplay } = useSettings();
  const nowMs = useNow();
  const display = parseTimeDisplay(params.get('time')) ?? timeDisplay;
  const apiSearch = holdersApiSearch(day);

  const collectionQuery = useQuery(collectionQueryOptions(address));
  const collection = collectionQuery.data;
  // The previous day's rows stay while the next day's come: nothing jumps, the focus stays.
  const query = useInfiniteQuery({
    ...collectionHoldersQueryOptions(address, apiSearch),
    placeholderData: keepPreviousData,
  });
  const list = useServerList(query);
  const updating = query.isPlaceholderData;
  const answer = updating ? undefined : query.data?.pages[0]?.answer;
  const coverage = collection?.coverage ?? query.data?.pages[0]?.answer.coverage;
  const when = whenOf(day);
  // The rows on screen may still be the day before's while the new day's come.
  const shownAsOf = query.data?.pages[0]?.answer.asOf;
  const rowsWhen = shownAsOf === undefined ? when : whenOf(shownAsOf && shownAsOf - DAY);

  const set = useCallback(
    (changes: Record<string, string | null>) =>
      setParams((old) => updateSearch(old, changes), { replace: true }),
    [setParams],
  );
  const columns = useMemo(() => holderColumns(display, timeZone), [display, timeZone]);
  const cells = useMemo(
    () => ({ tokensHeld: answer?.tokensHeld ?? 0, display, zone: timeZone, nowMs }),
    [answer?.tokensHeld, display, timeZone, nowMs],
  );
  const count = list.items.length;

  return (
    <>
      <div className={toolbar.toolbar}>
        <AsOfField
          day={day}
          nowMs={nowMs}
          onChange={(next) => set({ asOf: next === null ? null : formatUtcDay(next) })}
        />
        <a className={button.secondary} href={holdersExportHref(address, apiSearch)} download>
          Download CSV snapshot
        </a>
        <TimeDisplayToggle
          display={display}
          onChange={(next) => set({ time: formatTimeDisplay(next) })}
        />
      </div>
      <RetryingNotice error={query.failureReason} failureCount={query.failureCount} />
      {query.isError && count === 0 ? (
        <ErrorState error={query.error} onRetry={() => void query.refetch()} />
      ) : (
        <HoldersFigures answer={answer} when={when} />
      )}
      <h2 className={section.heading}>Holders, largest first</h2>
      {query.isPending ? (
        <SkeletonRows columns={5} />
      ) : query.isError && count === 0 ? null : count === 0 && !list.hasMore ? (
        <EmptyState title={`No holders ${when}`}>
          {coverage?.complete
            ? day === null
              ? 'No token of this collection is held by anyone.'
              : 'No token of this collection was held by anyone at that moment.'
            : 'None indexed yet: the indexer is reading this collection’s history.'}
        </EmptyState>
      ) : (
        <>
          {updating ? (
            <p className={section.status} role="status" aria-live="polite">
              Loading the holders {when}…
            </p>
          ) : (
            <LoadStatus noun="holder" list={list} total={answer?.totalHolders ?? null} />
          )}
          <HolderCells.Provider value={cells}>
            <ServerListTable
              caption={`Holders ${rowsWhen}, largest first`}
              list={list}
              updating={updating}
              noun="holders"
              columns={columns}
              getRowKey={holderKey}
              className={styles.cards}
            />
          </HolderCells.Provider>
        </>
      )}
    </>
  );
}
