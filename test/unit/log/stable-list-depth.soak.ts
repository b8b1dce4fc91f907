import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { readPageEnvelope } from '../../../src/lib/page';
import { readListPage } from '../../../src/server/log/list-page';
import {
  createListReader,
  type ListSpec,
  type UpstreamRead,
} from '../../../src/server/log/list-reader';
import { START_MS, useRecordLog } from './log-harness';

/**
 * A stable list (the contracts list) of any length costs the same per page: what is new
 * is told from what is logged by the index of identities, and a page is served from the
 * index of places, never by reading every logged record. A list of 11,000 contracts read
 * whole in 110 pages: the pages near page 100 cost no more than twice those near page 10,
 * when logged, when read again (nothing new) and when served.
 */
const { log } = useRecordLog();

const CONTRACTS: ListSpec = { path: '/v1/contracts', order: 'stable', identity: 'contract' };
const TOTAL = 11_000;
const PAGE = 100;
const PAGES = TOTAL / PAGE;

/** The service's contracts list, its cursor the position (never forgotten). */
function contractsUpstream() {
  const record = (n: number) => ({
    contract_address: `0x${n.toString(16).padStart(64, '0')}`,
    name: `Collection ${n}`,
    event_count: n % 1000,
  });
  /** When each read was asked for: the time between two is the log's work on a page. */
  const asked: number[] = [];
  return {
    asked,
    read(cursor: string | null): Promise<UpstreamRead<'down'>> {
      asked.push(performance.now());
      const from = cursor === null ? 0 : Number(cursor);
      const to = Math.min(TOTAL, from + PAGE);
      const result = Array.from({ length: to - from }, (_, index) => record(from + index));
      const envelope = { result, cursor: to < TOTAL ? String(to) : null };
      const page = readListPage(readPageEnvelope(envelope)!, 'contract');
      return Promise.resolve({ kind: 'page', page, full: false });
    },
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
const gaps = (times: number[]) => times.slice(1).map((time, index) => time - times[index]!);

/** The median time per page near page 10 and near page 100. */
function shallowAndDeep(times: number[]) {
  return { shallow: median(times.slice(5, 15)), deep: median(times.slice(95, 105)) };
}

describe('a long stable list', () => {
  it('costs the same per page at depth 10 and at depth 100', async () => {
    const upstream = contractsUpstream();
    const clock = { now: START_MS };
    const reader = createListReader<'down'>({
      log: log(),
      secret: 'test secret',
      read: (_spec, cursor) => upstream.read(cursor),
      settings: { headIntervalMs: 60_000 },
      now: () => clock.now,
    });
    const say = (what: string, { shallow, deep }: { shallow: number; deep: number }) =>
      console.log(
        `${what}: ${shallow.toFixed(1)} ms per page near page 10, ${deep.toFixed(1)} ms near page 100`,
      );

    // Read whole: every page logged once.
    expect(await reader.head(CONTRACTS)).toMatchObject({ reads: PAGES, added: TOTAL });
    const logged = shallowAndDeep(gaps(upstream.asked.splice(0)));
    say('logged', logged);
    expect(logged.deep).toBeLessThan(2 * logged.shallow + 5);

    // Read again when due: nothing new, no fault, the same cost per page.
    clock.now += 60_000;
    expect(await reader.head(CONTRACTS)).toMatchObject({
      reads: PAGES,
      added: 0,
      state: { fault: null, records: TOTAL },
    });
    const again = shallowAndDeep(gaps(upstream.asked.splice(0)));
    say('read again', again);
    expect(again.deep).toBeLessThan(2 * again.shallow + 5);

    // Served in pages of the same size, in the service's order, each record once.
    const times: number[] = [];
    const addresses: string[] = [];
    let cursor: string | null = null;
    do {
      const started = performance.now();
      const outcome = await reader.serve(CONTRACTS, cursor, PAGE);
      times.push(performance.now() - started);
      if (outcome.kind !== 'page') throw new Error(`page ${times.length}: ${outcome.kind}`);
      const body = JSON.parse(outcome.body.toString()) as {
        result: { contract_address: string }[];
      };
      addresses.push(...body.result.map((record) => record.contract_address));
      cursor = outcome.next;
    } while (cursor !== null);
    expect(addresses).toHaveLength(TOTAL);
    expect(
      addresses.every((address, n) => address === `0x${n.toString(16).padStart(64, '0')}`),
    ).toBe(true);
    expect(upstream.asked).toEqual([]);
    const served = shallowAndDeep(times);
    say('served', served);
    expect(served.deep).toBeLessThan(2 * served.shallow + 5);
  }, 60_000);
});
