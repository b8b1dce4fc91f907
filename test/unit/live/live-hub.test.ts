import { afterEach, describe, expect, it } from 'vitest';
import type { EventRow } from '../../../src/lib/answers';
import { createLiveHub, type LivePosition } from '../../../src/server/live/live-hub';
import {
  parseWalletPosition,
  subscribeWallet,
  walletPositionId,
} from '../../../src/server/live/wallet-stream';
import { createSampleService, generateDataset } from '../../../src/server/sample-service';
import { createRandom } from '../../../src/server/sample-service/random';
import { getViaFetch, type Upstream } from '../../../src/server/upstream/service-client';
import { indexedProxy } from '../../support/indexed-proxy';
import { usePostgresDatabases } from '../../support/postgres-databases';
import { canonicalAddress } from '../../../src/lib/address';
import { rawRecords } from '../../support/raw-records';

/**
 * Live pages' hub: however many streams a collection has, its head is asked for once per
 * head interval and each new row read once; a stream opened again at any position it was
 * given goes on with exactly the rows after it.
 */
const HEAD_MS = 150;
const dataset = generateDataset({ seed: 7, contracts: 3, events: 3_000 });
const [busiest, quiet] = [...dataset.contracts].sort((a, b) => b.eventCount - a.eventCount);
const random = createRandom(7, 0x11fe);
const databases = usePostgresDatabases();
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setUp() {
  const database = await databases.database();
  cleanups.push(database.drop);
  const service = createSampleService({ apiKey: 'k', profile: 'deployed', dataset });
  // The head of each contract's list asked of the service (no cursor), as they happen.
  const heads: string[] = [];
  const upstream: Upstream = {
    source: 'sample',
    baseUrl: 'http://sample.test',
    apiKey: 'k',
    description: 'sample',
    get: getViaFetch((request) => {
      const url = new URL(request.url);
      if (url.pathname.startsWith('/v1/events/') && !url.searchParams.has('cursor')) {
        heads.push(url.pathname.slice('/v1/events/'.length));
      }
      return service.fetch(request);
    }),
  };
  const { proxy, engine } = await indexedProxy({
    url: database.url,
    upstream,
    cleanups,
    settings: { headIntervalMs: HEAD_MS },
  });
  for (const contract of [busiest!, quiet!]) await proxy.indexer.whole(contract.address).done;
  return { proxy, pool: engine.pool, heads, service };
}

/** A new mint of `contract` (to `wallet`, else anyone) at the head of its list, newest of all. */
let clock = dataset.anchor;
function arrive(contract: typeof busiest, wallet = random.int(dataset.walletCount)) {
  clock += 1;
  dataset.addMint(contract!, wallet, clock, random);
}

/** A stream that keeps what it is sent. */
function recorder() {
  const rows: EventRow[] = [];
  let position: LivePosition | null = null;
  return {
    rows,
    position: () => position,
    subscriber: {
      send(batch: readonly EventRow[], at: LivePosition) {
        rows.push(...batch);
        position = at;
      },
      end() {},
    },
  };
}

async function until(check: () => boolean, what: string) {
  for (let waited = 0; !check(); waited += 20) {
    if (waited > 20_000) throw new Error(`Not within 20 s: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('the live hub', () => {
  it('reads each collection’s head once per interval for a thousand streams, and gives every stream each new row once', async () => {
    const { proxy, heads, service } = await setUp();
    const streams = Array.from({ length: 1_000 }, recorder);
    for (const stream of streams)
      await proxy.live.subscribe(busiest!.address, null, stream.subscriber);
    const alone = recorder();
    await proxy.live.subscribe(quiet!.address, null, alone.subscriber);
    heads.length = 0;
    const started = performance.now();

    arrive(busiest);
    arrive(busiest);
    await until(() => streams.every((stream) => stream.rows.length >= 2), 'both rows everywhere');
    const rows = streams[0]!.rows;
    expect(rows).toHaveLength(2);
    for (const stream of streams)
      expect(stream.rows.map((row) => row.id)).toEqual(rows.map((row) => row.id));
    // Every row is what the service sent: the new mints, the newest of the contract.
    // (Rows go by their number: two records of one page are numbered in the page's order.)
    const sent = (await rawRecords(service, busiest!.address)).slice(0, 2).reverse();
    const byTime = [...rows].sort((a, b) => a.timestamp - b.timestamp);
    expect(byTime.map((row) => [row.kind, row.to, row.timestamp])).toEqual(
      sent.map((record) => [
        'mint',
        canonicalAddress(record.to_address!),
        Number(record.timestamp),
      ]),
    );
    expect(alone.rows).toEqual([]);

    // Let a few intervals pass: the heads asked of the service follow the clock, not the streams.
    await new Promise((resolve) => setTimeout(resolve, HEAD_MS * 6));
    const intervals = (performance.now() - started) / HEAD_MS;
    const busiestHeads = heads.filter((path) => path === busiest!.address).length;
    const quietHeads = heads.filter((path) => path === quiet!.address).length;
    expect(busiestHeads).toBeGreaterThan(0);
    expect(busiestHeads).toBeLessThanOrEqual(Math.ceil(intervals) + 1);
    expect(Math.abs(busiestHeads - quietHeads)).toBeLessThanOrEqual(1);
    expect(proxy.live.stats()).toMatchObject({ collections: 2, streams: 1_001 });
  });

  it('goes on after any position it gave, with no row lost or sent twice', async () => {
    const { proxy } = await setUp();
    const whole = recorder();
    const subscription = await proxy.live.subscribe(busiest!.address, null, whole.subscriber);
    const positions: LivePosition[] = [subscription.position];
    for (let index = 0; index < 5; index += 1) {
      arrive(busiest);
      await until(() => whole.rows.length === index + 1, `row ${index + 1}`);
      positions.push(whole.position()!);
    }
    const ids = whole.rows.map((row) => row.id);
    expect(new Set(ids).size).toBe(5);
    for (const [index, from] of positions.entries()) {
      // A stream dropped after `index` rows, opened again from its last event id.
      const again = recorder();
      const resumed = await proxy.live.subscribe(busiest!.address, from, again.subscriber);
      expect(resumed.reset).toBe(false);
      expect(resumed.missed.map((row) => row.id)).toEqual(ids.slice(index));
      arrive(busiest);
      await until(() => again.rows.length === 1, 'the next row');
      expect(whole.rows.at(-1)!.id).toBe(again.rows[0]!.id);
      ids.push(again.rows[0]!.id);
      resumed.stop();
    }
  });

  it('tells a stream too far behind to load its view again', async () => {
    const { proxy, pool } = await setUp();
    const stream = recorder();
    const { position } = await proxy.live.subscribe(busiest!.address, null, stream.subscriber);
    for (let index = 0; index < 3; index += 1) arrive(busiest);
    await until(() => stream.rows.length === 3, 'three rows');
    // A hub that lets a stream miss two rows at most.
    const strict = createLiveHub({ pool, head: async () => {}, intervalMs: 60_000, batch: 2 });
    cleanups.push(async () => strict.close());
    const behind = await strict.subscribe(busiest!.address, position, recorder().subscriber);
    expect(behind.reset).toBe(true);
    expect(behind.missed).toEqual([]);
    expect(behind.position.after).toBe(stream.position()!.after);
    const near = await strict.subscribe(
      busiest!.address,
      { ...position, after: Number(stream.rows[0]!.id) },
      recorder().subscriber,
    );
    expect(near.reset).toBe(false);
    expect(near.missed.map((row) => row.id)).toEqual(stream.rows.slice(1).map((row) => row.id));
  });

  it('gives a wallet’s stream its rows in each of its collections, and goes on after any id it gave', async () => {
    const { proxy } = await setUp();
    // The wallet changes hands in both collections before its stream opens.
    const wallet = random.int(dataset.walletCount);
    const seen = recorder();
    const watching = await Promise.all(
      [busiest!, quiet!].map((contract) =>
        proxy.live.subscribe(contract.address, null, seen.subscriber),
      ),
    );
    arrive(busiest, wallet);
    arrive(quiet, wallet);
    await until(() => seen.rows.length === 2, 'the wallet’s first rows');
    const address = seen.rows[0]!.to;
    expect(seen.rows[1]!.to).toBe(address);

    const rows: EventRow[] = [];
    const ids: string[] = [];
    const opened = await subscribeWallet(proxy.live, address, null, {
      send: (batch, batchIds) => void (rows.push(...batch), ids.push(...batchIds)),
      end() {},
    });
    expect(opened.missed).toEqual([]);
    const starts = [opened.at];
    for (const [contract, to] of [
      [quiet, wallet],
      [busiest, (wallet + 1) % dataset.walletCount],
      [busiest, wallet],
      [quiet, wallet],
    ] as const) {
      arrive(contract, to);
    }
    await until(() => rows.length === 3 && seen.rows.length === 6, 'the three rows of the wallet');
    expect(rows.every((row) => row.to === address)).toBe(true);
    expect(new Set(rows.map((row) => row.id)).size).toBe(3);
    expect(rows.map((row) => row.contractAddress).sort()).toEqual(
      [quiet!.address, busiest!.address, quiet!.address].sort(),
    );

    for (const [index, id] of [...starts, ...ids].entries()) {
      // A stream dropped after `index` rows, opened again from its last event id.
      const from = parseWalletPosition(id);
      expect(from && walletPositionId(from)).toBe(id);
      const again: EventRow[] = [];
      const resumed = await subscribeWallet(proxy.live, address, from, {
        send: (batch) => void again.push(...batch),
        end() {},
      });
      expect(resumed.reset).toBe(false);
      expect(resumed.missed.map((row) => row.id).sort()).toEqual(
        rows
          .slice(index)
          .map((row) => row.id)
          .sort(),
      );
      resumed.stop();
    }
    opened.stop();
    for (const each of watching) each.stop();
    expect(parseWalletPosition('w1-2_3.x')).toBeNull();
    expect(parseWalletPosition('1234_1751241600')).toBeNull();
  });

  it('tells a watcher of each collection with new rows, reading no head itself', async () => {
    const { proxy, heads } = await setUp();
    const told: string[] = [];
    let ended = false;
    const unwatch = proxy.live.watch({
      changed: (contract) => void told.push(contract),
      end: () => void (ended = true),
    });
    // Listening once a notice of rows read by someone else reaches it.
    const readBy = async (contract: typeof busiest) => {
      arrive(contract);
      await proxy.indexer.head(contract!.address, 'test');
    };
    await until(() => proxy.live.stats().collections === 0, 'no hub');
    for (let tries = 0; !told.includes(busiest!.address); tries += 1) {
      if (tries > 100) throw new Error('Not told of the busiest collection');
      await readBy(busiest);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    heads.length = 0;
    told.length = 0;
    await readBy(quiet);
    await until(() => told.includes(quiet!.address), 'told of the quiet collection');
    expect(told).toEqual([quiet!.address]);
    // The one head read is the one asked for: watching reads none.
    await new Promise((resolve) => setTimeout(resolve, HEAD_MS * 4));
    expect(heads).toEqual([quiet!.address]);
    unwatch();
    let closed = false;
    proxy.live.watch({ changed() {}, end: () => void (closed = true) });
    proxy.live.close();
    expect([ended, closed]).toEqual([false, true]);
  });
});
