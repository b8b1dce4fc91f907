import { Hono } from 'hono';
import type { WalletInCollectionAnswer } from '../../lib/answers';
import { collectionRef } from '../index/contract-names';
import { eventsPage } from '../index/events-query';
import { walletCollections } from '../index/wallet';
import { emptyWalletFigures, walletInCollection } from '../index/wallet-collection';
import {
  mounted,
  parse,
  pathParam,
  queryKey,
  readOf,
  type ApiContext,
  type ApiEnv,
} from './api-context';
import { coverageOf } from './coverage';
import { emptyParams, walletAddress, walletCollectionParams, walletEventsParams } from './params';

export const COVERS = 'Collections the index holds; a collection not indexed yet is not counted.';

/**
 * A wallet across the collections the index holds: its totals, its changes of hands, one
 * collection of it. The tokens it sold in a year are in tax-year-api.ts.
 */
export function walletsApi(api: ApiContext) {
  const { keyset, now } = api;
  const app = new Hono<ApiEnv>();

  app.get(mounted('wallet'), async (c) => {
    const params = parse(c, emptyParams);
    if (params instanceof Response) return params;
    const wallet = pathParam(c, 'address', walletAddress);
    if (wallet instanceof Response) return wallet;
    const read = await readOf(c);
    return c.json({
      address: wallet,
      collections: await walletCollections(read.pool, wallet),
      covers: COVERS,
      ...api.freshness(read),
    });
  });

  app.get(mounted('walletEvents'), async (c) => {
    const params = parse(c, walletEventsParams);
    if (params instanceof Response) return params;
    const wallet = pathParam(c, 'address', walletAddress);
    if (wallet instanceof Response) return wallet;
    const key = queryKey(`wallet:${wallet}`, params);
    const cursor = api.decodeCursor(key, params.cursor);
    if (cursor.error) return cursor.error;
    const { pool } = await readOf(c);
    let contractId: number | undefined;
    if (params.collection) {
      const { id } = await coverageOf(pool, params.collection, undefined);
      if (id === undefined) return c.json({ events: [], next: null });
      contractId = id;
    }
    const page = await eventsPage(
      pool,
      {
        address: wallet,
        ...(contractId !== undefined && { contractId }),
        ...(params.kind?.length && { kinds: params.kind }),
        sort: { id: 'time', desc: true },
        limit: params.limit,
      },
      cursor.after,
    );
    return c.json({ events: page.rows, next: page.next ? keyset.encode(key, page.next) : null });
  });

  // One wallet inside one collection: a whole-history question of the collection.
  app.get(mounted('walletCollection'), async (c) => {
    const wallet = pathParam(c, 'address', walletAddress);
    if (wallet instanceof Response) return wallet;
    const found = await api.collectionRequest(c, walletCollectionParams, 'contract');
    if (found.error) return found.error;
    const { pool } = await readOf(c);
    const [collection, figures] = await Promise.all([
      collectionRef(pool, found.address),
      found.id === undefined
        ? null
        : walletInCollection(pool, wallet, found.id, {
            ...(found.params.interval && { interval: found.params.interval }),
            now: Math.floor(now() / 1000),
          }),
    ]);
    const answer: WalletInCollectionAnswer = {
      ...(figures ?? emptyWalletFigures(wallet)),
      collection,
      coverage: found.coverage,
    };
    return c.json(answer);
  });

  return app;
}
