import { describe, expect, it } from 'vitest';
import {
  generateDataset,
  servedEventCount,
  servedRecordCount,
  type Dataset,
  type Token,
} from '../../../src/server/sample-service';
import { useIndexedSample, type Json } from '../../support/indexed-sample';

/**
 * What the documented profile changes for a visitor, over the server as the browser asks
 * it: the browser suite runs the deployed profile alone, and both profiles render through
 * the same components. Records: one per change of hands (a sale is one `sale` record, not
 * two), burns sent; images: every contract's. Figures, pages and holders of both profiles:
 * `query-api.test.ts`.
 */
const dataset = generateDataset({ seed: 5, contracts: 6, events: 12_000 });
const busiest = [...dataset.contracts].sort((a, b) => b.eventCount - a.eventCount)[0]!;
const base = `/api/collections/${busiest.address}`;

const setUp = useIndexedSample(dataset);
// Six contracts have every image registered: twelve have some the deployed service leaves out.
const catalogue = generateDataset({ seed: 5, contracts: 12, events: 12_000 });
const setUpCatalogue = useIndexedSample(catalogue);

/** The busiest contract's first token that `wanted` accepts, by its events in order. */
function tokenWhere(data: Dataset, wanted: (seqs: number[]) => boolean): Token {
  for (let index = 0; index < data.tokenCount; index++) {
    const token = data.token(index);
    if (token.contract !== busiest) continue;
    if (wanted(Array.from(data.tokenEvents(token)))) return token;
  }
  throw new Error('The dataset has no such token.');
}

// As the browser suite picks its long token: ten events or more, sales among them.
const longToken = tokenWhere(
  dataset,
  (seqs) => seqs.length >= 10 && seqs.some((seq) => dataset.sale(seq)),
);
const burnedToken = tokenWhere(dataset, (seqs) => dataset.kind(seqs.at(-1)!) === 'burn');

describe('the documented profile, as the browser reads it', () => {
  it('a token’s history: one row per record, each sale one record with its price', async () => {
    const { get } = await setUp('documented');
    const { status, body } = await get(`${base}/tokens/${longToken.id}`);
    expect(status).toBe(200);
    const rows = servedEventCount(dataset, 'documented', { token: longToken });
    expect(servedRecordCount(dataset, 'documented', { token: longToken })).toBe(rows);
    expect(body.events).toHaveLength(rows);
    const sales = body.events.filter((event: Json) => event.kind === 'sale');
    expect(sales.length).toBeGreaterThan(0);
    expect(sales.map((sale: Json) => sale.records)).toEqual(sales.map(() => 'sale'));
    for (const sale of sales) expect(sale.price ?? sale.priceText).toBeTruthy();
    const transactions = body.events.map((event: Json) => event.transactionHash);
    expect(new Set(transactions).size).toBe(transactions.length);
    expect(body.custody).toHaveLength(body.events.length);
  });

  it('the same token in the deployed profile: the same rows, each sale from two records', async () => {
    const { get } = await setUp('deployed');
    const { body } = await get(`${base}/tokens/${longToken.id}`);
    const rows = servedEventCount(dataset, 'deployed', { token: longToken });
    expect(rows).toBe(servedEventCount(dataset, 'documented', { token: longToken }));
    expect(servedRecordCount(dataset, 'deployed', { token: longToken })).toBeGreaterThan(rows);
    expect(body.events).toHaveLength(rows);
    const sales = body.events.filter((event: Json) => event.kind === 'sale');
    expect(sales.map((sale: Json) => sale.records)).toEqual(sales.map(() => 'transfer+sale'));
  });

  it('a burn is sent, and the token’s page says it burned', async () => {
    const { get } = await setUp('documented');
    const { body } = await get(`${base}/tokens/${burnedToken.id}`);
    expect(body.events).toHaveLength(
      servedEventCount(dataset, 'documented', { token: burnedToken }),
    );
    expect(body.events.at(-1).kind).toBe('burn');
    expect(body.burned).toBe(true);
    // Custody: one step per owner, none for the burn.
    expect(body.custody).toHaveLength(body.events.length - 1);
  });

  it('every collection’s image, where the deployed service registers few', async () => {
    const ranked = async (profile: 'documented' | 'deployed') => {
      const { get } = await setUpCatalogue(profile);
      const { status, body } = await get('/api/collections?window=all&limit=100');
      expect(status).toBe(200);
      return new Map<string, string | null>(
        body.collections.map((entry: Json) => [entry.address, entry.image || null]),
      );
    };
    const documented = await ranked('documented');
    const deployed = await ranked('deployed');
    expect(documented.size).toBe(catalogue.contracts.length);
    for (const contract of catalogue.contracts) {
      // The dataset's own image, where it has one ('' is none).
      expect(documented.get(contract.address), contract.name).toBe(contract.image || null);
      if (!contract.imageRegistered) expect(deployed.get(contract.address)).toBeNull();
    }
    // The difference shows: an image the documented profile sends and the deployed one not.
    expect(
      catalogue.contracts.some((contract) => contract.image && !contract.imageRegistered),
    ).toBe(true);
  });
});
