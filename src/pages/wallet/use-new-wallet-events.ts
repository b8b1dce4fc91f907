import { useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { queryKeys } from '../../api/query-keys';
import type { ServerPage } from '../../api/use-server-list';
import { liveWalletPath, tokenEventOf } from '../../api/wallets';
import { useNewRows } from '../../components/use-new-rows';
import type { EventRow } from '../../lib/answers';
import type { TokenEvent } from '../../lib/token-event';

/**
 * A wallet's new changes of hands, pushed by its live stream (use-new-rows.ts): a row of
 * the collection in view (or of any, with none chosen) goes to the top of the loaded rows,
 * marked new (the table sorts what is loaded, so any sort takes it); the wallet's
 * figures, its figures in the collection and its year for taxes are asked again.
 */
export function useNewWalletEvents(address: string, collection: string | null) {
  const queryClient = useQueryClient();
  const eventsKey = queryKeys.walletEvents(address, collection);

  /** The rows at the top of the first page, newest first. */
  const place = (rows: EventRow[]) => {
    let since: number | null = null;
    queryClient.setQueryData<InfiniteData<ServerPage<TokenEvent>>>(eventsKey, (data) => {
      const first = data?.pages[0];
      if (!data || !first) return data;
      since = first.items[0]?.timestamp ?? 0;
      const newest = [...rows]
        .sort((a, b) => b.timestamp - a.timestamp || Number(b.id) - Number(a.id))
        .map(tokenEventOf);
      const keys = new Set(newest.map((row) => row.key));
      const items = [...newest, ...first.items.filter((row) => !keys.has(row.key))];
      return { ...data, pages: [{ ...first, items }, ...data.pages.slice(1)] };
    });
    return since;
  };

  const reload = () => void queryClient.resetQueries({ queryKey: eventsKey });

  return useNewRows({
    path: liveWalletPath(address),
    viewKey: JSON.stringify(eventsKey),
    fit: (row) => (collection === null || row.contractAddress === collection ? 'place' : 'none'),
    place,
    follow: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.wallet(address) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.walletTaxYears(address) });
      if (collection) {
        void queryClient.invalidateQueries({
          queryKey: queryKeys.walletCollection(address, collection),
        });
      }
    },
    reload,
  }).freshSince;
}
