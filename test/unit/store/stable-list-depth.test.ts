import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { readPageEnvelope } from '../../../src/lib/page';
import {
  createEventStore,
  storeSecret,
  type ListSpec,
  type UpstreamRead,
} from '../../../src/server/store/event-store';
import { readListPage } from '../../../src/server/store/list-page';
import { openPostgresEngine } from '../../../src/server/store/postgres-engine';
import { usePostgresDatabases } from '../../support/postgres-databases';

/**
 * A stable list (the contracts list) of any length costs the same per page: what is new
 * is told from what is stored by an index of identities, not by reading every stored
 * record. A list of 200,000 contracts, walked 110 pages deep: the pages near depth 100
 * cost no more than twice those near depth 10.
 */
const databases = usePostgresDatabases();

const CONTRACTS: ListSpec = { path: '/v1/contracts', order: 'stable', identity: 'contract' };
const TOTAL = 200_000;
const PAGE = 1_000;

/** The service's contracts list, its cursor the position (never forgotten). */
function contractsUpstream() {
  const record = (n: number) => ({
    contract_address: `0x${n.toString(16).padStart(64, '0')}`,
    name: `Collection ${n}`,
    event_count: n % 1000,
  });
  let reads = 0;
  return {
    reads: () => reads,
    read(cursor: string | null): Promise<UpstreamRead<'down'>> {
      reads += 1;
      const from = cursor === null ? 0 : Number(cursor);
      const to = Math.min(TOTAL, from + PAGE);
      const result = Array.from({ length: to - from }, (_, index) => record(from + index));
      const envelope = { result, cursor: to < TOTAL ? String(to) : null };
      const page = readListPage(readPageEnvelope(envelope)!, 'contract');
      return Promise.resolve({ kind: 'page', page, full: to - from === PAGE });
    },
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;

describe('a long stable list', () => {
  it('costs the same per page at depth 10 and at depth 100', async () => {
    const { url, drop } = await databases.database();
    const engine = await openPostgresEngine({ connectionString: url });
    try {
      const upstream = contractsUpstream();
      const store = createEventStore<'down'>({
        engine,
        secret: await storeSecret(engine),
        read: (_spec, cursor) => upstream.read(cursor),
        settings: { headIntervalMs: 60_000 },
        now: () => clock,
      });
      let clock = 1_000_000;
      const times: number[] = [];
      const addresses: string[] = [];
      let cursor: string | null = null;
      for (let page = 1; page <= 110; page++) {
        const started = performance.now();
        const outcome = await store.serve(CONTRACTS, cursor, PAGE);
        times.push(performance.now() - started);
        if (outcome.kind !== 'page') throw new Error(`page ${page}: ${outcome.kind}`);
        const body = JSON.parse(outcome.body.toString()) as {
          result: { contract_address: string }[];
        };
        addresses.push(...body.result.map((record) => record.contract_address));
        cursor = outcome.next;
      }
      // Every record once, in order; each upstream page read once.
      expect(addresses.length).toBe(110 * PAGE);
      expect(new Set(addresses).size).toBe(addresses.length);
      expect(upstream.reads()).toBe(110);
      const shallow = median(times.slice(5, 15));
      const deep = median(times.slice(95, 105));
      console.log(
        `stable list pages of ${PAGE}: ${shallow.toFixed(1)} ms near depth 10, ` +
          `${deep.toFixed(1)} ms near depth 100`,
      );
      expect(deep).toBeLessThan(2 * shallow + 5);
      // Its head read again compares its first pages only, not the 110,000 stored records.
      clock += 60_000;
      const started = performance.now();
      const again = await store.serve(CONTRACTS, null, PAGE);
      const recheck = performance.now() - started;
      console.log(`its head read again (3 pages compared): ${recheck.toFixed(1)} ms`);
      expect(again.kind).toBe('page');
      expect(upstream.reads()).toBe(113);
      expect(recheck).toBeLessThan(8 * shallow + 20);
    } finally {
      await engine.close();
      await drop();
    }
  }, 60_000);
});
