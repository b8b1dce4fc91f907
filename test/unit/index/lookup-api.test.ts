import { describe, expect, it } from 'vitest';
import { canonicalAddress } from '../../../src/lib/address';
import { parseBaseUnits } from '../../../src/lib/price';
import { generateDataset } from '../../../src/server/sample-service';
import { useIndexedSample, type Json } from '../../support/indexed-sample';
import { rawRecords, type RawRecord } from '../../support/raw-records';

/**
 * What a pasted value is (`/api/lookup/:value`) and a transaction's changes of hands
 * (`/api/transactions/:hash`), from the index alone, checked against the service's own
 * records.
 */
const dataset = generateDataset({ seed: 5, contracts: 6, events: 6_000 });
const [busiest, second, unread] = [...dataset.contracts].sort(
  (a, b) => b.eventCount - a.eventCount,
);
const setUp = useIndexedSample(dataset);

const hashOf = (record: RawRecord) => canonicalAddress(record.transaction_hash!)!;

async function indexed() {
  const sample = await setUp('deployed');
  // The contracts list as stored: what names a collection (and its name).
  await sample.proxy.indexer!.listed();
  await sample.proxy.indexer!.whole(busiest!.address).done;
  await sample.proxy.indexer!.whole(second!.address).done;
  const records: RawRecord[] = [];
  for (const contract of [busiest!.address, second!.address]) {
    for (const record of await rawRecords(sample.service, contract))
      records.push({ ...record, contract });
  }
  return { ...sample, records };
}

describe('the lookup', () => {
  it('names a listed collection, a wallet and a transaction the index has seen, and nothing else', async () => {
    const { get, records, proxy, pool } = await indexed();
    const sale = records.find((r) => r.event_type === 'sale')!;
    const buyer = canonicalAddress(sale.to_address!)!;

    const collection = await get(`/api/lookup/${busiest!.address}`);
    expect(collection.status).toBe(200);
    expect(collection.body.matches).toEqual([
      { kind: 'collection', address: busiest!.address, name: busiest!.name ?? null },
    ]);
    const wallet = await get(`/api/lookup/${buyer}`);
    expect(wallet.body.matches).toEqual([{ kind: 'wallet', address: buyer }]);
    const transaction = await get(`/api/lookup/${hashOf(sale)}`);
    expect(transaction.body.matches).toEqual([{ kind: 'transaction', hash: hashOf(sale) }]);

    // Never seen: nothing, and no walk started for it.
    const unknown = await get(`/api/lookup/0x1`);
    expect(unknown.status).toBe(200);
    expect(unknown.body.matches).toEqual([]);
    // A listed collection not read yet is named without reading it.
    const listed = await get(`/api/lookup/${unread!.address}`);
    expect(listed.body.matches.map((m: Json) => m.kind)).toEqual(['collection']);
    expect(proxy.indexer!.progress(unread!.address)).toBeUndefined();
    const { rows } = await pool.query('SELECT records FROM idx_contracts WHERE address = $1', [
      unread!.address,
    ]);
    expect(Number(rows[0].records)).toBe(0);
  });

  it('names a token of the collection in view, by decimal or hex id', async () => {
    const { get, records } = await indexed();
    const token = BigInt(records.find((r) => r.token_id)!.token_id!);
    const inView = `?collection=${busiest!.address}`;
    const byDecimal = await get(`/api/lookup/${token}${inView}`);
    expect(byDecimal.body.matches).toContainEqual({
      kind: 'token',
      collection: busiest!.address,
      tokenId: token.toString(),
    });
    const byHex = await get(`/api/lookup/0x${token.toString(16)}${inView}`);
    expect(byHex.body.matches).toContainEqual({
      kind: 'token',
      collection: busiest!.address,
      tokenId: token.toString(),
    });
    // Without a collection in view, a number is no token.
    expect((await get(`/api/lookup/${token}`)).body.matches).toEqual([]);
  });

  it('refuses what is no value with a clear 400', async () => {
    const { get } = await setUp('deployed');
    for (const path of [
      '/api/lookup/hello',
      `/api/lookup/0x${'1'.repeat(65)}`,
      '/api/lookup/0x1?x=1',
    ]) {
      const { status, body } = await get(path);
      expect(status).toBe(400);
      expect(body.error.kind).toBe('bad_request');
    }
  });
});

describe('a transaction', () => {
  it('lists every change of hands in it with its price, as the records say', async () => {
    const { get, records } = await indexed();
    const sale = records.find((r) => r.event_type === 'sale')!;
    const hash = hashOf(sale);
    const inIt = records.filter((r) => hashOf(r) === hash);
    // Deployed: a sale's transfer twin is its change of hands.
    const changes = inIt.filter((r) => r.event_type !== 'sale');
    const { status, body } = await get(`/api/transactions/${hash}`);
    expect(status).toBe(200);
    expect(body.hash).toBe(hash);
    expect(body.events).toHaveLength(changes.length);
    for (const event of body.events) expect(event.transactionHash).toBe(hash);
    const sold = body.events.find((e: Json) => e.kind === 'sale');
    expect(BigInt(sold.price)).toBe(parseBaseUnits(String(sale.price)));
    expect(body.collections.map((c: Json) => c.address)).toEqual([sale.contract]);
  });

  it('says nothing is known of a hash the index has not seen, and refuses a bad one', async () => {
    const { get } = await setUp('deployed');
    const unknown = await get(`/api/transactions/0x${'ab'.repeat(32)}`);
    expect(unknown.status).toBe(200);
    expect(unknown.body.events).toEqual([]);
    expect((await get('/api/transactions/nope')).status).toBe(400);
  });
});
