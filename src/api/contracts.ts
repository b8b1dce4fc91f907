import { queryOptions } from '@tanstack/react-query';
import type { RankingAnswer } from '../lib/answers';
import type { Contract } from '../lib/contract';
import type { KnownContracts } from '../lib/lookup';
import { getAnswer } from './client';
import { queryKeys } from './query-keys';

/** As many collections as one answer of the ranking holds: the directory's size. */
const DIRECTORY_SIZE = 500;

/**
 * Every collection the server knows, by name: what the lookup box recognises names and
 * short forms in, and where a page finds a collection's name without asking the index
 * about it (which would start reading its whole history). One answer of the ranking.
 */
export const collectionDirectoryQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.contracts(),
    queryFn: async ({ signal }): Promise<KnownContracts> => {
      const answer = await getAnswer<RankingAnswer>(
        `/api/collections?window=all&sort=name&limit=${DIRECTORY_SIZE}`,
        signal,
        ['collections', 'next'],
      );
      const contracts = answer.collections.map((row): Contract => {
        const contract: Contract = { address: row.address };
        if (row.name !== null) contract.name = row.name;
        if (row.symbol !== null) contract.symbol = row.symbol;
        if (row.image !== null) contract.image = row.image;
        if (row.type !== null) contract.type = row.type;
        return contract;
      });
      return { contracts, complete: answer.next === null };
    },
    staleTime: 10 * 60_000,
  });
