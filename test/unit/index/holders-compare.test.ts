import { describe, expect, it } from 'vitest';
import { parseBaseUnits } from '../../../src/lib/price';
import { generateDataset } from '../../../src/server/sample-service';
import { useIndexedSample, type Json } from '../../support/indexed-sample';
import {
  changesOfHands,
  countedCurrency,
  holdersFrom,
  rawRecords,
  type RawRecord,
} from '../../support/raw-records';

/**
 * Holders at two moments (`GET …/holders/compare`) and its files: who joined, left, grew
 * or shrank, and the collection's figures at each moment, equal to what is worked out
 * here from the service's own records.
 */
const dataset = generateDataset({ seed: 11, contracts: 4, events: 6_000 });
const busiest = [...dataset.contracts].sort((a, b) => b.eventCount - a.eventCount)[0]!;
const base = `/api/collections/${busiest.address}`;
const DAY = 86_400;
const ZERO = /^0x0*$/;

const setUp = useIndexedSample(dataset);

const iso = (seconds: number) => new Date(seconds * 1000).toISOString();

/** The changes between two moments, from the records alone, largest first. */
function changesFrom(records: RawRecord[], from: number, to: number) {
  const at = (moment: number) =>
    new Map(holdersFrom(records, moment).map((h) => [h.owner, h.tokens]));
  const [a, b] = [at(from), at(to)];
  const rows = [];
  for (const owner of new Set([...a.keys(), ...b.keys()])) {
    const [x, y] = [a.get(owner) ?? 0, b.get(owner) ?? 0];
    if (x === y) continue;
    const change = x === 0 ? 'joined' : y === 0 ? 'left' : y > x ? 'grew' : 'shrank';
    rows.push({ owner, from: x, to: y, change });
  }
  return rows.sort(
    (p, q) =>
      Math.abs(q.to - q.from) - Math.abs(p.to - p.from) ||
      (p.owner > q.owner ? -1 : p.owner < q.owner ? 1 : 0),
  );
}

/** The activity at or before a moment, from the records alone. */
function activityFrom(records: RawRecord[], moment: number) {
  const changes = changesOfHands(records).filter((c) => c.ts <= moment);
  const kindOf = (c: (typeof changes)[number]) =>
    ZERO.test(c.from) ? 'mint' : ZERO.test(c.to) ? 'burn' : c.sale ? 'sale' : 'transfer';
  const counts = { mint: 0, transfer: 0, sale: 0, burn: 0, other: 0 };
  const volume = new Map<string, bigint>();
  for (const change of changes) {
    const kind = kindOf(change);
    counts[kind] += 1;
    if (kind !== 'sale') continue;
    const currency = countedCurrency(change.sale!.currency_address);
    volume.set(
      currency,
      (volume.get(currency) ?? 0n) + parseBaseUnits(String(change.sale!.price))!,
    );
  }
  return { events: changes.length, counts, volume };
}

const top10Share = (records: RawRecord[], moment: number) => {
  const holders = holdersFrom(records, moment);
  const held = holders.reduce((sum, h) => sum + h.tokens, 0);
  return holders.slice(0, 10).reduce((sum, h) => sum + h.tokens, 0) / held;
};

describe('holders compared at two moments', () => {
  it('says who joined, left, grew or shrank and the figures at each, as the raw records say', async () => {
    const { proxy, service, get } = await setUp();
    await proxy.indexer!.whole(busiest.address).done;
    const records = await rawRecords(service, busiest.address);
    const times = records.map((r) => Number(r.timestamp)).sort((a, b) => a - b);
    // The ends of two days, a third and two thirds into the history (UTC midnights).
    const dayEnd = (share: number) =>
      Math.floor(times[Math.floor(times.length * share)]! / DAY) * DAY + DAY;
    const [from, to] = [dayEnd(1 / 3), dayEnd(2 / 3)];
    const want = changesFrom(records, from, to);
    expect(new Set(want.map((row) => row.change))).toEqual(
      new Set(['joined', 'left', 'grew', 'shrank']),
    );

    const search = `from=${iso(from).slice(0, 10)}&to=${iso(to).slice(0, 10)}`;
    const rows: Json[] = [];
    let cursor: string | null = null;
    let first: Json | undefined;
    do {
      const page: { status: number; body: Json } = await get(
        `${base}/holders/compare?${search}&limit=7${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(page.status).toBe(200);
      first ??= page.body;
      rows.push(...page.body.changes);
      cursor = page.body.next;
    } while (cursor);
    expect(rows).toEqual(want);
    const answer = first!;
    expect([answer.from, answer.to, answer.toNow]).toEqual([from, to, false]);
    const counted = (change: string) => want.filter((row) => row.change === change).length;
    expect(answer.changed).toEqual({
      joined: counted('joined'),
      left: counted('left'),
      grew: counted('grew'),
      shrank: counted('shrank'),
      stayed: holdersFrom(records, from).filter((h) =>
        holdersFrom(records, to).some((g) => g.owner === h.owner && g.tokens === h.tokens),
      ).length,
    });

    // The figures at each moment.
    for (const [moment, figures] of [
      [from, answer.figures.from],
      [to, answer.figures.to],
    ] as const) {
      const holders = holdersFrom(records, moment);
      expect(figures.totalHolders).toBe(holders.length);
      expect(figures.tokensHeld).toBe(holders.reduce((sum, h) => sum + h.tokens, 0));
      expect(figures.top10Share).toBeCloseTo(top10Share(records, moment), 12);
      const activity = activityFrom(records, moment);
      expect(figures.activity.events).toBe(activity.events);
      expect(figures.activity.counts).toEqual(activity.counts);
      expect(
        new Map(figures.activity.volume.map((v: Json) => [v.currency.address, BigInt(v.volume)])),
      ).toEqual(activity.volume);
    }

    // One kind of change alone.
    const left = await get(`${base}/holders/compare?${search}&change=left&limit=500`);
    expect(left.body.changes).toEqual(want.filter((row) => row.change === 'left'));

    // 30 days before the second moment when no first is named.
    const month = await get(`${base}/holders/compare?to=${iso(to).slice(0, 10)}&limit=1`);
    expect([month.body.from, month.body.to]).toEqual([to - 30 * DAY, to]);

    // Up to now when no second moment is named.
    const now = await get(`${base}/holders/compare?from=${iso(from).slice(0, 10)}&limit=500`);
    expect(now.body.toNow).toBe(true);
    expect(now.body.figures.to.totalHolders).toBe(holdersFrom(records, Infinity).length);

    // Its files: the holders that changed, and the figures of both moments.
    const file = await proxy.app.request(`${base}/holders/compare/export?${search}`);
    expect(file.headers.get('content-disposition')).toBe(
      `attachment; filename="holders-${busiest.address.slice(0, 10)}_compare-${iso(from - DAY).slice(0, 10)}_${iso(to - DAY).slice(0, 10)}.csv"`,
    );
    const [header, ...lines] = (await file.text()).trimEnd().split('\r\n');
    expect(header).toBe('owner,tokens_from,tokens_to,change,from_utc,to_utc');
    expect(lines).toEqual(
      want.map((r) => `${r.owner},${r.from},${r.to},${r.change},${iso(from)},${iso(to)}`),
    );
    const figuresFile = await (
      await proxy.app.request(`${base}/holders/compare/export?${search}&part=figures`)
    ).text();
    const figureLines = figuresFile.trimEnd().split('\r\n');
    expect(figureLines[0]).toBe('figure,currency,from,to');
    expect(figureLines).toContain(
      `holders,,${holdersFrom(records, from).length},${holdersFrom(records, to).length}`,
    );
    expect(figureLines).toContain(
      `events,,${activityFrom(records, from).events},${activityFrom(records, to).events}`,
    );
  }, 180_000);

  it('refuses moments it cannot read, or in the wrong order, saying why', async () => {
    const { get } = await setUp();
    const bad = async (search: string) => {
      const { status, body } = await get(`${base}/holders/compare?${search}`);
      expect(status).toBe(400);
      return body.error.message as string;
    };
    expect(await bad('from=2025-06-30&to=2025-06-01')).toBe(
      'from must not be after to: the first moment comes first.',
    );
    expect(await bad('from=2025-02-30')).toMatch(/from must be unix seconds or a UTC date/);
    expect(await bad('from=2025-06-01&change=stayed')).toBe(
      'change must be one of joined, left, grew, shrank.',
    );
  }, 60_000);
});
