import { describe, expect, it } from 'vitest';
import { ZERO_ADDRESS } from '../../../src/lib/address';
import {
  BROKEN_IMAGE_URL,
  CURRENCIES,
  ELEMENT,
  generateDataset,
  HEX_PRICES_SINCE,
  HOSTILE_CONTRACT_NAME,
  STARKNET_QUEST_ADDRESS,
  STARKVERSE_EXAMPLE_MINT,
  STARKVERSE_GALLERY_ADDRESS,
  startAnchor,
  TIMELINE,
  VENTORY,
  type Dataset,
} from '../../../src/server/sample-service';
import { contractRecord, eventRecord, SALE_PART } from '../../../src/server/sample-service/records';
import { dataset, SMALL } from './helpers';

const FIELD_ELEMENT = /^0x0[0-7][0-9a-f]{62}$/;

/** Everything a dataset shows through the service, as plain JSON. */
function snapshot(data: Dataset): string {
  return JSON.stringify({
    contracts: data.contracts.map((contract) => contractRecord(contract, 'deployed')),
    events: Array.from({ length: data.eventCount }, (_, seq) => {
      const event = data.event(seq);
      return [
        eventRecord(event, 'deployed'),
        event.sale && eventRecord(event, 'deployed', SALE_PART),
      ];
    }),
  });
}

describe('generateDataset', () => {
  it('gives the same data for the same seed and other data for another seed', () => {
    const options = { contracts: 7, events: 1_500 };
    const first = snapshot(generateDataset({ seed: 11, ...options }));
    expect(snapshot(generateDataset({ seed: 11, ...options }))).toBe(first);
    expect(snapshot(generateDataset({ seed: 12, ...options }))).not.toBe(first);
  });

  it('takes the default for an option given as undefined', () => {
    const explicit = snapshot(generateDataset({ seed: 1, contracts: 6, events: 100 }));
    expect(snapshot(generateDataset({ seed: undefined, contracts: 6, events: 100 }))).toBe(
      explicit,
    );
  });

  it('has the requested size, with idle contracts and Starknet-shaped values', () => {
    const data = dataset(SMALL);
    expect(data.contracts).toHaveLength(SMALL.contracts);
    expect(data.eventCount).toBe(SMALL.events);
    expect(data.contracts.reduce((sum, contract) => sum + contract.eventCount, 0)).toBe(
      SMALL.events,
    );
    expect(
      data.contracts.filter((contract) => contract.eventCount === 0).length,
    ).toBeGreaterThanOrEqual(2);
    for (const contract of data.contracts) {
      expect(contract.address).toMatch(FIELD_ELEMENT);
      expect(['ERC721', 'ERC1155']).toContain(contract.type);
    }
    for (let seq = 0; seq < data.eventCount; seq += 1) {
      const event = data.event(seq);
      expect(event.transactionHash).toMatch(FIELD_ELEMENT);
      expect(event.eventId).toMatch(FIELD_ELEMENT);
      expect(event.timestamp).toBeGreaterThanOrEqual(TIMELINE.start);
      expect(event.timestamp).toBeLessThanOrEqual(TIMELINE.end);
      if (event.sale) expect(event.sale.price).toMatch(/^[1-9][0-9]*$/);
      expect(event.sale !== null).toBe(event.kind === 'sale');
    }
  });

  it('keeps contracts in indexing order', () => {
    const { contracts } = dataset(SMALL);
    contracts.forEach((contract, index) => expect(contract.index).toBe(index));
    for (let n = 1; n < contracts.length; n += 1) {
      expect(contracts[n]?.indexedAt).toBeGreaterThanOrEqual(contracts[n - 1]?.indexedAt ?? 0);
    }
  });

  it('gives every token a coherent history: minted, moved by its holder, burned last', () => {
    const data = dataset(SMALL);
    let burns = 0;
    for (let index = 0; index < data.tokenCount; index += 1) {
      const history = Array.from(data.tokenEvents(data.token(index)), (seq) => data.event(seq));
      const [mint, ...rest] = history;
      expect(mint?.kind).toBe('mint');
      expect(mint?.fromAddress).toBe(ZERO_ADDRESS);
      let holder = mint?.toAddress;
      let time = mint?.timestamp ?? 0;
      rest.forEach((event, n) => {
        expect(event.kind).not.toBe('mint');
        expect(event.fromAddress).toBe(holder);
        expect(event.timestamp).toBeGreaterThanOrEqual(time);
        if (event.kind === 'burn') {
          burns += 1;
          expect(event.toAddress).toBe(ZERO_ADDRESS);
          expect(n).toBe(rest.length - 1);
        } else {
          expect(event.toAddress).not.toBe(holder);
        }
        holder = event.toAddress;
        time = event.timestamp;
      });
    }
    expect(burns).toBeGreaterThan(0);
  });

  it('contains the special contracts of every dataset of six or more', () => {
    const data = generateDataset({ seed: 5, contracts: 6, events: 3_000 });
    const byName = new Map(data.contracts.map((contract) => [contract.name, contract]));
    expect(byName.get('Starknet Quest')).toMatchObject({
      address: STARKNET_QUEST_ADDRESS,
      type: 'ERC721',
      symbol: 'SKQ',
    });
    expect(byName.get('Starknet Quest')?.image).toMatch(/^data:image\/png;base64,/);
    expect(byName.get('StarkVerse Gallery')?.address).toBe(STARKVERSE_GALLERY_ADDRESS);
    const images = data.contracts.map((contract) => contract.image);
    expect(images).toContain('');
    expect(images).toContain(BROKEN_IMAGE_URL);
    expect(images.some((image) => /^ipfs:\/\/bafy[a-z2-7]+\/1\.png$/.test(image))).toBe(true);
    expect(byName.get(HOSTILE_CONTRACT_NAME)?.image).toBe('javascript:alert(1)');
    expect(data.contracts.find((contract) => contract.image === '')?.symbol).toBe('');
    expect(new Set(data.contracts.map((contract) => contract.type))).toEqual(
      new Set(['ERC721', 'ERC1155']),
    );
  });

  it('contains the documented StarkVerse Gallery mint', () => {
    const data = dataset(SMALL);
    const gallery = data.contractByAddress(STARKVERSE_GALLERY_ADDRESS);
    const token = gallery && data.findToken(gallery, STARKVERSE_EXAMPLE_MINT.tokenId);
    expect(token).toBeDefined();
    const [mint] = Array.from(token ? data.tokenEvents(token) : [], (seq) => data.event(seq));
    expect(mint).toMatchObject({
      kind: 'mint',
      fromAddress: ZERO_ADDRESS,
      timestamp: STARKVERSE_EXAMPLE_MINT.timestamp,
    });
  });

  it('uses token ids from small sequential ones to full 256-bit ones', () => {
    const data = generateDataset({ seed: 2, contracts: 30, events: 20_000 });
    const ids = Array.from({ length: data.tokenCount }, (_, index) => data.token(index).id);
    expect(ids).toContain(1n);
    expect(ids.some((id) => id >= 1n << 200n)).toBe(true);
  });

  it('shifts every time to end the timeline at the anchor, and changes nothing else', () => {
    const options = { seed: 11, contracts: 7, events: 1_500 };
    const fixed = generateDataset(options);
    expect(fixed.anchor).toBe(TIMELINE.end);
    const anchor = TIMELINE.end + 500 * 86_400 + 3_600;
    const shifted = generateDataset({ ...options, anchor });
    const sales = (data: Dataset) =>
      Array.from({ length: data.eventCount }, (_, seq) => data.event(seq).sale);
    for (let seq = 0; seq < fixed.eventCount; seq += 1) {
      const [before, after] = [fixed.event(seq), shifted.event(seq)];
      expect(after.timestamp - before.timestamp).toBe(anchor - TIMELINE.end);
      const plain = (event: typeof after) => ({
        ...event,
        timestamp: 0,
        sale: null,
        token: event.token.id,
      });
      expect(plain(after)).toEqual(plain(before));
    }
    shifted.contracts.forEach((contract, index) =>
      expect(contract.indexedAt - (fixed.contracts[index]?.indexedAt ?? 0)).toBe(
        anchor - TIMELINE.end,
      ),
    );
    const newest = Math.max(
      ...Array.from({ length: shifted.eventCount }, (_, seq) => shifted.timestamp(seq)),
    );
    expect(newest).toBeLessThanOrEqual(anchor);
    expect(newest).toBeGreaterThan(anchor - 2 * 86_400);
    // Only the price's format follows the time (hex since October 2024).
    expect(sales(shifted).map((sale) => sale && { ...sale, hexPrice: false })).toEqual(
      sales(fixed).map((sale) => sale && { ...sale, hexPrice: false }),
    );
    expect(() => generateDataset({ ...options, anchor: 12 })).toThrow(RangeError);
  });

  it('anchors a running service at its start time, rounded down to the hour', () => {
    expect(startAnchor(Date.UTC(2026, 10, 22, 19, 59, 59, 999))).toBe(
      Date.UTC(2026, 10, 22, 19) / 1000,
    );
    expect(startAnchor(Date.UTC(2026, 10, 22, 20))).toBe(Date.UTC(2026, 10, 22, 20) / 1000);
  });

  it('sells at Element in ETH, STRK, USDC or an unknown currency, and at Ventory in none', () => {
    const data = generateDataset({ seed: 6, contracts: 12, events: 30_000 });
    const sales = Array.from({ length: data.eventCount }, (_, seq) => data.event(seq)).flatMap(
      (event) => (event.sale ? [{ event, sale: event.sale }] : []),
    );
    const known = new Set<string>(Object.values(CURRENCIES).map((currency) => currency.address));
    const seen = new Map<string, number>();
    const count = (name: string) => seen.set(name, (seen.get(name) ?? 0) + 1);
    for (const { event, sale } of sales) {
      expect([ELEMENT, VENTORY]).toContain(sale.marketplace);
      const units = BigInt(sale.price);
      if (sale.marketplace === VENTORY) {
        expect(sale.currency).toBeNull();
        expect(sale.quantity).toBe(1);
        count('none');
      } else {
        expect(sale.currency).not.toBeNull();
        const { symbol, decimals, address } = sale.currency!;
        expect(address).toMatch(/^0x0[0-7][0-9a-f]{62}$/);
        expect(known.has(address)).toBe(symbol !== null);
        count(symbol ?? 'unknown');
        // Realistic amounts in each currency's own units.
        const whole = Number(units) / 10 ** decimals;
        const range = { ETH: [0.002, 3], STRK: [2, 5_000], USDC: [5, 500] }[symbol ?? 'ETH'];
        if (symbol !== null) {
          expect(whole).toBeGreaterThanOrEqual(range![0]! * 0.99);
          expect(whole).toBeLessThanOrEqual(range![1]! * 1.01);
        }
        if (event.token.contract.type === 'ERC1155') count(`quantity ${sale.quantity > 1}`);
      }
      if (sale.hexPrice) {
        expect(event.timestamp).toBeGreaterThanOrEqual(HEX_PRICES_SINCE);
        count('hex');
      } else count('decimal');
      if (sale.reversed) count('reversed');
    }
    for (const name of ['none', 'ETH', 'STRK', 'USDC', 'unknown', 'hex', 'decimal', 'reversed']) {
      expect(seen.get(name), name).toBeGreaterThan(0);
    }
    // ERC1155 lots sell several copies at once, mostly.
    expect(seen.get('quantity true')).toBeGreaterThan(seen.get('quantity false') ?? 0);
  });

  it('adds mints and moves after the timeline, in time order, to the lists they belong to', () => {
    const data = generateDataset({ seed: 3, contracts: 8, events: 2_000 });
    const contract = [...data.contracts].sort((a, b) => b.eventCount - a.eventCount)[0]!;
    const random = {
      u32: () => 7,
      float: () => 0.5,
      int: () => 0,
      chance: () => false,
      pick: <T>(items: readonly T[]) => items[0]!,
    };
    const before = data.eventCount;
    const time = data.anchor + 60;
    const minted = data.addMint(contract, 5, time, random);
    expect(data.findToken(contract, minted.id)).toEqual(minted);
    data.addMove(minted, 'sale', 6, time + 1);
    expect(data.eventCount).toBe(before + 2);
    expect(data.addedEvents(contract)).toEqual([before, before + 1]);
    expect(Array.from(data.tokenEvents(minted))).toEqual([before, before + 1]);
    expect(data.event(before + 1)).toMatchObject({
      kind: 'sale',
      timestamp: time + 1,
      fromAddress: data.event(before).toAddress,
    });
    expect(data.holder(minted)).toBe(6);
    expect(() => data.addMove(minted, 'transfer', 7, time)).toThrow(RangeError);
  });
});
