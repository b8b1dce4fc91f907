import { infiniteQueryOptions } from '@tanstack/react-query';
import type { RankedContract, RankingAnswer } from '../lib/answers';
import { getAnswer, pagePath } from './client';
import { queryKeys } from './query-keys';
import type { ServerPage } from './use-server-list';

/** Collections a page of the ranking asks for. */
export const RANKING_PAGE_SIZE = 50;

/** `/api/collections?…&limit=…&cursor=…`: the view's search (see ranking-view.ts) and the page. */
export function rankingPath(search: string, cursor: string | null): string {
  return pagePath('/api/collections', search, RANKING_PAGE_SIZE, cursor);
}

/** A page of the ranking, with what its answer says of the whole window. */
export interface RankingPage extends ServerPage<RankedContract> {
  faults: string[];
  window: Pick<RankingAnswer, 'active' | 'newest' | 'nearest' | 'washSales'>;
}

export async function fetchRankingPage(
  search: string,
  cursor: string | null,
  signal?: AbortSignal,
): Promise<RankingPage> {
  const answer = await getAnswer<RankingAnswer>(rankingPath(search, cursor), signal, [
    'collections',
    'next',
  ]);
  const { active, newest, nearest, washSales } = answer;
  return {
    items: answer.collections,
    next: answer.next,
    faults: answer.faults ?? [],
    window: { active, newest, nearest, washSales },
  };
}

/**
 * The collections ranked under a view, a page per server cursor (its cursors never die:
 * each page's param is the cursor the page before gave). Figures move as the indexer
 * reads, so a ranking is fresh for a minute.
 */
export const rankingsQueryOptions = (search: string) =>
  infiniteQueryOptions({
    queryKey: queryKeys.rankings(search),
    queryFn: ({ pageParam, signal }) => fetchRankingPage(search, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.next ?? undefined,
    staleTime: 60_000,
  });
