import { describe, expect, it } from 'vitest';
import { canonicalAddress, isZeroAddress } from '../../../src/lib/address';
import { generateDataset } from '../../../src/server/sample-service';
import { rawRecords, useIndexedSample } from '../../support/indexed-sample';

/**
 * The holders snapshot's file (`GET …/holders/export`): one line per holder, now and as of
 * a past moment, equal to the holders worked out here from the service's own records,
 * in the holders answer's order, named for the collection and the day.
 */
const dataset = generateDataset({ seed: 11, contracts: 4, events: 6_000 });
const busiest = [...dataset.contracts].sort((a, b) => b.eventCount - a.eventCount)[0]!;
const base = `/api/collections/${busiest.address}`;
const DAY = 86_400;

const setUp = useIndexedSample(dataset);

interface Expected {
  owner: string;
  tokens: number;
  since: number;
}

/**
 * Holders from the records alone: in the deployed profile every change of hands has its
 * transfer record (a sale's too), so each token's holder is the receiver of its latest
 * transfer up to the moment (a mint first and a burn last at one time), nobody after a burn.
 */
function holdersFrom(records: Record<string, string>[], asOf: number): Expected[] {
  const rank = (r: Record<string, string>) =>
    isZeroAddress(r.from_address!) ? 0 : isZeroAddress(r.to_address!) ? 2 : 1;
  const latest = new Map<string, Record<string, string>>();
  for (const record of records) {
    if (record.event_type !== 'transfer' || Number(record.timestamp) > asOf) continue;
    const held = latest.get(record.token_id!);
    const later =
      !held ||
      Number(record.timestamp) > Number(held.timestamp) ||
      (Number(record.timestamp) === Number(held.timestamp) && rank(record) > rank(held));
    if (later) latest.set(record.token_id!, record);
  }
  const owners = new Map<string, Expected>();
  for (const record of latest.values()) {
    if (isZeroAddress(record.to_address!)) continue;
    const owner = canonicalAddress(record.to_address!)!;
    const entry = owners.get(owner) ?? { owner, tokens: 0, since: 0 };
    entry.tokens += 1;
    entry.since = Math.max(entry.since, Number(record.timestamp));
    owners.set(owner, entry);
  }
  // Largest first, then by address descending: the holders answer's order.
  return [...owners.values()].sort(
    (a, b) => b.tokens - a.tokens || (a.owner > b.owner ? -1 : a.owner < b.owner ? 1 : 0),
  );
}

const iso = (seconds: number) => new Date(seconds * 1000).toISOString();

describe('the holders snapshot file', () => {
  it('has one line per holder, now and as of a past day, equal to the holders of the raw records', async () => {
    const { proxy, service } = await setUp();
    await proxy.indexer!.whole(busiest.address).done;
    const records = await rawRecords(service, busiest.address);
    const times = records.map((r) => Number(r.timestamp)).sort((a, b) => a - b);

    // As of the end of a day in the middle of the history.
    const day = Math.floor(times[Math.floor(times.length / 2)]! / DAY) * DAY;
    const asOf = day + DAY;
    const date = iso(asOf).slice(0, 10);
    const response = await proxy.app.request(`${base}/holders/export?asOf=${date}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="holders-${busiest.address.slice(0, 10)}_asof-${iso(day).slice(0, 10)}.csv"`,
    );
    const [header, ...lines] = (await response.text()).trimEnd().split('\r\n');
    expect(header).toBe('owner,tokens,since_utc,as_of_utc');
    const want = holdersFrom(records, asOf);
    expect(want.length).toBeGreaterThan(10);
    expect(lines).toEqual(want.map((h) => `${h.owner},${h.tokens},${iso(h.since)},${iso(asOf)}`));

    // Now: the whole history, each line saying when it was taken.
    const now = await proxy.app.request(`${base}/holders/export`);
    expect(now.headers.get('content-disposition')).toBe(
      `attachment; filename="holders-${busiest.address.slice(0, 10)}.csv"`,
    );
    const nowLines = (await now.text()).trimEnd().split('\r\n').slice(1);
    const all = holdersFrom(records, Infinity);
    expect(nowLines.map((line) => line.split(',').slice(0, 3).join(','))).toEqual(
      all.map((h) => `${h.owner},${h.tokens},${iso(h.since)}`),
    );
    const taken = Date.parse(nowLines[0]!.split(',')[3]!);
    expect(Math.abs(taken - Date.now())).toBeLessThan(60_000);

    // The file and the answer agree: as many lines as holders, the same first page.
    const answer = (await (
      await proxy.app.request(`${base}/holders?asOf=${date}&limit=20`)
    ).json()) as { totalHolders: number; holders: { owner: string; tokens: number }[] };
    expect(answer.totalHolders).toBe(lines.length);
    expect(answer.holders.map((h) => `${h.owner},${h.tokens}`)).toEqual(
      want.slice(0, 20).map((h) => `${h.owner},${h.tokens}`),
    );
  }, 120_000);

  it('refuses what it cannot read, saying what it accepts', async () => {
    const { proxy } = await setUp();
    const bad = async (path: string) => {
      const response = await proxy.app.request(path);
      expect(response.status).toBe(400);
      return ((await response.json()) as { error: { message: string } }).error.message;
    };
    expect(await bad(`${base}/holders/export?asOf=2025-02-30`)).toMatch(/UTC date like/);
    expect(await bad(`${base}/holders/export?limit=5`)).toBe('Unknown parameter: limit.');
    expect(await bad(`/api/collections/0xnothex/holders/export`)).toMatch(/Starknet address/);
  }, 60_000);
});
