import { Hono, type Context } from 'hono';
import type { z } from 'zod';
import {
  HOLDER_SINCE_NOTE,
  type AlsoHoldAnswer,
  type HoldersFigures,
  type HoldersOverlapAnswer,
} from '../../lib/answers';
import { csvHeader, csvRows } from '../../lib/export';
import { collectionRef } from '../index/contract-names';
import { everyHolder, holders } from '../index/holders';
import {
  alsoHold,
  everyOverlapHolder,
  overlapFigures,
  overlapPage,
} from '../index/holders-overlap';
import {
  downloadRequest,
  EXPORT_BATCH,
  mounted,
  queryKey,
  readOf,
  type ApiContext,
  type ApiEnv,
} from './api-context';
import {
  alsoHoldExportColumns,
  alsoHoldExportRow,
  holderExportColumns,
  holderExportName,
  holderExportRow,
  overlapExportColumns,
  overlapExportRow,
} from './holders-export';
import {
  alsoHoldParams,
  emptyParams,
  holdersExportParams,
  holdersParams,
  overlapParams,
} from './params';

export const NO_HOLDERS: HoldersFigures = {
  totalHolders: 0,
  tokensHeld: 0,
  knownBurned: 0,
  distribution: ['1', '2–5', '6–10', '11–25', '26+'].map((range) => ({ range, holders: 0 })),
  top10Share: 0,
};
// What every holders answer counts, in words.
export const HOLDERS_COUNTED =
  'Tokens held, not copies: the records carry no ERC1155 balances. A token burned without the index seeing it (contract lists carry no burns) still counts for its last holder.';
const ALSO_HOLD_COUNTED = `Holders now, of collections the index holds (one not indexed yet counts what is indexed). ${HOLDERS_COUNTED}`;

/**
 * A collection's holders (now or as of a day) and their file; what they also hold; who
 * holds it and another collection. Two days compared are in holders-compare-api.ts.
 */
export function holdersApi(api: ApiContext) {
  const { keyset, now, collectionRequest } = api;
  const app = new Hono<ApiEnv>();

  app.get(mounted('collectionHolders'), async (c) => {
    const found = await collectionRequest(c, holdersParams);
    if (found.error) return found.error;
    const { params } = found;
    const key = queryKey(`holders:${found.address}`, params);
    const cursor = api.decodeCursor(key, params.cursor);
    if (cursor.error) return cursor.error;
    // A collection nothing of which is indexed yet has no holders so far: the same shape.
    const answer =
      found.id === undefined
        ? { ...NO_HOLDERS, holders: [], next: null }
        : await holders((await readOf(c)).pool, found.id, {
            ...(params.asOf !== undefined && { asOf: params.asOf }),
            ...(params.owner !== undefined && { owner: params.owner }),
            limit: params.limit,
            after: cursor.after,
            // While older pages still come in, each would drop what was kept.
            keepIn: found.coverage.complete ? api.primary : undefined,
          });
    return c.json({
      ...answer,
      asOf: params.asOf ?? null,
      next: answer.next ? keyset.encode(key, answer.next) : null,
      counted: `${HOLDERS_COUNTED} ${HOLDER_SINCE_NOTE}`,
      coverage: found.coverage,
    });
  });

  // Every holder in one file, as the holders answer orders them, streamed a batch at a time.
  app.get(mounted('holdersExport'), async (c) => {
    const found = await collectionRequest(c, holdersExportParams);
    if (found.error) return found.error;
    const { params } = found;
    // A snapshot of now says on each line when it was taken.
    const asOf = params.asOf ?? Math.floor(now() / 1000);
    const id = found.id;
    const { pool } = await readOf(c);
    return api.downloads.respond(downloadRequest(c), {
      name: `${holderExportName(found.address, params.asOf)}.csv`,
      type: 'text/csv',
      async *text() {
        yield csvHeader(holderExportColumns);
        if (id === undefined) return;
        for await (const batch of everyHolder(pool, id, params.asOf, EXPORT_BATCH)) {
          yield csvRows(
            batch.map((holder) => holderExportRow(holder, asOf)),
            holderExportColumns,
          );
        }
      },
    });
  });

  app.route('/', alsoHoldApi(api));
  app.route('/', overlapApi(api));
  return app;
}

/** The collections a collection's holders also hold, as JSON and as a file. */
function alsoHoldApi(api: ApiContext) {
  const { now, collectionRequest } = api;
  const app = new Hono<ApiEnv>();

  app.get(mounted('holdersAlsoHold'), async (c) => {
    const found = await collectionRequest(c, alsoHoldParams);
    if (found.error) return found.error;
    const answer: AlsoHoldAnswer = {
      ...(found.id === undefined
        ? { holders: 0, collections: [] }
        : await alsoHold((await readOf(c)).pool, found.id, found.params.limit)),
      counted: ALSO_HOLD_COUNTED,
      coverage: found.coverage,
    };
    return c.json(answer);
  });

  app.get(mounted('alsoHoldExport'), async (c) => {
    const found = await collectionRequest(c, emptyParams);
    if (found.error) return found.error;
    const id = found.id;
    const asOf = Math.floor(now() / 1000);
    const { pool } = await readOf(c);
    return api.downloads.respond(downloadRequest(c), {
      name: `holders-${found.address.slice(0, 10)}_also-hold.csv`,
      type: 'text/csv',
      async *text() {
        yield csvHeader(alsoHoldExportColumns);
        if (id === undefined) return;
        const { collections } = await alsoHold(pool, id, Number.MAX_SAFE_INTEGER);
        yield csvRows(
          collections.map((held) => alsoHoldExportRow(held, asOf)),
          alsoHoldExportColumns,
        );
      },
    });
  });

  return app;
}

/** Who holds a collection and another, as JSON and as a file. */
function overlapApi(api: ApiContext) {
  const { keyset, now } = api;
  const app = new Hono<ApiEnv>();

  /** Both collections of an overlap route; either may be one the service does not list. */
  async function overlapRequest<S extends z.ZodType>(c: Context, schema: S) {
    const found = await api.collectionRequest(c, schema);
    if (found.error) return found;
    const other = await api.collection(c, true, 'other');
    if (other.error) return other;
    return { ...found, other };
  }

  app.get(mounted('holdersOverlap'), async (c) => {
    const found = await overlapRequest(c, overlapParams);
    if (found.error) return found.error;
    const { params, other } = found;
    const key = queryKey(`overlap:${found.address}:${other.address}`, params);
    const cursor = api.decodeCursor(key, params.cursor);
    if (cursor.error) return cursor.error;
    const { pool } = await readOf(c);
    const ids = found.id !== undefined && other.id !== undefined ? [found.id, other.id] : null;
    const [figures, page, ref] = await Promise.all([
      ids ? overlapFigures(pool, ids[0]!, ids[1]!) : null,
      ids
        ? overlapPage(pool, ids[0]!, ids[1]!, { limit: params.limit, after: cursor.after })
        : { rows: [], next: null },
      collectionRef(pool, other.address),
    ]);
    const answer: HoldersOverlapAnswer = {
      other: ref,
      ...(figures ?? { holders: 0, otherHolders: 0, inCommon: 0, share: 0, otherShare: 0 }),
      rows: page.rows,
      next: page.next ? keyset.encode(key, page.next) : null,
      counted: ALSO_HOLD_COUNTED,
      coverage: found.coverage,
      otherCoverage: other.coverage,
    };
    return c.json(answer);
  });

  app.get(mounted('overlapExport'), async (c) => {
    const found = await overlapRequest(c, emptyParams);
    if (found.error) return found.error;
    const [id, otherId] = [found.id, found.other.id];
    const asOf = Math.floor(now() / 1000);
    const { pool } = await readOf(c);
    return api.downloads.respond(downloadRequest(c), {
      name: `holders-${found.address.slice(0, 10)}_and-${found.other.address.slice(0, 10)}.csv`,
      type: 'text/csv',
      async *text() {
        yield csvHeader(overlapExportColumns);
        if (id === undefined || otherId === undefined) return;
        for await (const batch of everyOverlapHolder(pool, id, otherId, EXPORT_BATCH)) {
          yield csvRows(
            batch.map((holder) => overlapExportRow(holder, asOf)),
            overlapExportColumns,
          );
        }
      },
    });
  });

  return app;
}
