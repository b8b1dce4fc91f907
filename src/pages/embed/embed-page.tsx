import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import {
  collectionEventsQueryOptions,
  collectionQueryOptions,
  collectionSeriesQueryOptions,
  INDEXING_POLL_MS,
  LIVE_POLL_MS,
} from '../../api/collection';
import { ActivityChart } from '../../components/activity-chart';
import { LeftOut } from '../../components/bad-param';
import { EventKindBadge } from '../../components/event-kind-badge';
import { paramRoute } from '../../components/param-route';
import { Price } from '../../components/price';
import { useRootTheme, useSettings } from '../../components/settings';
import { EmptyState, ErrorState, SkeletonRows } from '../../components/states';
import { TimeCell } from '../../components/time-cell';
import { useNow } from '../../components/use-now';
import { useTitle } from '../../components/use-title';
import { activeSpan, chartRange, uncoveredNote } from '../../lib/activity';
import { parseAddress, shortenHex } from '../../lib/address';
import { hrefs } from '../../lib/routes';
import { readEmbedSearch, readEmbedTheme } from './embed-view';
import styles from './embed-page.module.css';

/** How often an embedded page asks again: often while the index reads, else for what is new. */
const refreshEvery = (complete: boolean | undefined) =>
  complete === false ? INDEXING_POLL_MS : LIVE_POLL_MS;

/** The newest changes of hands an embedded list shows: what fits a small frame. */
const LATEST_SHOWN = 10;

const NOT_AN_ADDRESS = 'This is not a collection address';

/** `/embed/contracts/:address/activity`: a collection's activity chart over its whole history. */
export const EmbedActivityRoute = paramRoute({
  params: { address: [NOT_AN_ADDRESS, parseAddress] },
  search: readEmbedSearch,
  href: ({ address }, search) => hrefs.embedActivity(address, search),
  Page: EmbedActivity,
});

/** `/embed/contracts/:address/latest`: a collection's newest changes of hands. */
export const EmbedLatestRoute = paramRoute({
  params: { address: [NOT_AN_ADDRESS, parseAddress] },
  search: readEmbedSearch,
  href: ({ address }, search) => hrefs.embedLatest(address, search),
  Page: EmbedLatest,
});

/**
 * What every embedded page has: the theme the link names (else the reader's), the
 * collection's name, what is shown, and the way to the whole page, in a new tab so the
 * embedding site stays where it is.
 */
function EmbedFrame({
  address,
  what,
  children,
}: {
  address: string;
  what: string;
  children: ReactNode;
}) {
  const [params] = useSearchParams();
  const { theme } = useSettings();
  useRootTheme(readEmbedTheme(params.get('theme')).value ?? theme);
  const collection = useQuery(collectionQueryOptions(address));
  const name = collection.data?.name || `Contract ${shortenHex(address)}`;
  useTitle(`${name}: ${what}`);
  return (
    <main className={styles.embed} aria-labelledby="embed-title">
      <header className={styles.header}>
        <h1 id="embed-title" className={styles.title}>
          <span className={styles.name}>{name}</span> <span className={styles.what}>{what}</span>
        </h1>
        <a
          className={styles.open}
          href={hrefs.contractEvents(address)}
          target="_blank"
          rel="noopener noreferrer"
          aria-label={`Open ${name} on Token activity (new tab)`}
        >
          Token activity <span aria-hidden="true">↗</span>
        </a>
      </header>
      <LeftOut />
      {collection.isError ? (
        <ErrorState error={collection.error} onRetry={() => void collection.refetch()} compact />
      ) : (
        children
      )}
    </main>
  );
}

function EmbedActivity({ address }: { address: string }) {
  const collection = useQuery(collectionQueryOptions(address));
  const nowSeconds = Math.floor(useNow() / 1000);
  const range = chartRange(null, activeSpan(collection.data?.figures), nowSeconds);
  const series = useQuery({
    ...collectionSeriesQueryOptions(address, '', range.interval),
    enabled: collection.data !== undefined,
    // Nothing else on the page refreshes it: asked again as the index reads, then now and then.
    refetchInterval: refreshEvery(collection.data?.coverage.complete),
  });
  return (
    <EmbedFrame address={address} what="activity">
      {series.isError ? (
        <ErrorState error={series.error} onRetry={() => void series.refetch()} compact />
      ) : (
        <ActivityChart
          buckets={series.data?.buckets ?? []}
          interval={series.data?.interval ?? range.interval}
          range={range}
          burnsUnlisted
          partial={uncoveredNote(collection.data?.coverage)}
          loading={series.data === undefined}
        />
      )}
    </EmbedFrame>
  );
}

function EmbedLatest({ address }: { address: string }) {
  const nowMs = useNow();
  const { timeZone } = useSettings();
  const collection = useQuery(collectionQueryOptions(address));
  const events = useInfiniteQuery({
    ...collectionEventsQueryOptions(address, '', LATEST_SHOWN),
    refetchInterval: refreshEvery(collection.data?.coverage.complete),
  });
  const rows = events.data?.pages[0]?.items ?? [];
  return (
    <EmbedFrame address={address} what="latest events">
      {events.isPending ? (
        <SkeletonRows columns={3} rows={4} />
      ) : events.isError ? (
        <ErrorState error={events.error} onRetry={() => void events.refetch()} compact />
      ) : rows.length === 0 ? (
        <EmptyState title="No events yet">The index holds no change of hands of it yet.</EmptyState>
      ) : (
        <ol className={styles.latest} aria-label="Latest changes of hands">
          {rows.map((row) => (
            <li key={row.id} className={styles.row}>
              <EventKindBadge event={row} />
              <a
                href={hrefs.tokenHistory(row.contractAddress, row.tokenId)}
                target="_blank"
                rel="noopener noreferrer"
                className={styles.token}
              >
                #{row.tokenId}
              </a>
              <span className={styles.price}>
                {row.price !== undefined && <Price event={row} narrow />}
              </span>
              <span className={styles.time}>
                <TimeCell
                  seconds={row.timestamp}
                  display="relative"
                  nowMs={nowMs}
                  zone={timeZone}
                />
              </span>
            </li>
          ))}
        </ol>
      )}
    </EmbedFrame>
  );
}
