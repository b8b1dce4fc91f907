import { describe, expect, it } from 'vitest';
import { ZERO_ADDRESS } from '../../../src/lib/address';
import {
  BROKEN_IMAGE_URL,
  generateDataset,
  HOSTILE_CONTRACT_NAME,
  STARKNET_QUEST_ADDRESS,
  STARKVERSE_EXAMPLE_MINT,
  STARKVERSE_GALLERY_ADDRESS,
  TIMELINE,
  type Dataset,
} from '../../../src/server/sample-service';
import { contractRecord, eventRecord } from '../../../src/server/sample-service/records';
import { dataset, SMALL } from './helpers';

const FIELD_ELEMENT = /^0x0[0-7][0-9a-f]{62}$/;

/** Everything a dataset shows through the service, as plain JSON. */
function snapshot(data: Dataset): string {
  return JSON.stringify({
    contracts: data.contracts.map((contract) => contractRecord(contract, 'deployed')),
    events: Array.from({ length: data.eventCount }, (_, seq) =>
      eventRecord(data.event(seq), 'deployed'),
    ),
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
    expect(byName.get('Starknet Quest')?.image).toMatch(/^data:image\/svg\+xml,/);
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
});
