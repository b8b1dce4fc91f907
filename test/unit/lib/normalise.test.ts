import { describe, expect, it } from 'vitest';
import { normaliseContract, normaliseEvent } from '../../../src/lib/normalise';

const A = (digits: string) => `0x${digits.padStart(64, '0')}`;
const ZERO = A('0');
const base = {
  contract_address: A('abc'),
  contract_type: 'ERC721',
  event_id: A('e1'),
  event_type: 'transfer',
  from_address: A('1'),
  to_address: A('2'),
  timestamp: 1706896016,
  token_id: '856292',
  token_id_hex: A('d10e4'),
  transaction_hash: A('7'),
};

describe('normaliseEvent', () => {
  it('reads a documented record', () => {
    expect(normaliseEvent(base)).toMatchObject({
      kind: 'transfer',
      label: 'transfer',
      contractAddress: A('abc'),
      contractType: 'ERC721',
      tokenId: '856292',
      timestamp: 1706896016,
    });
  });

  it('accepts string timestamps and derives mint and burn from the zero address', () => {
    expect(normaliseEvent({ ...base, timestamp: '1706896016', from_address: ZERO })).toMatchObject({
      kind: 'mint',
      label: 'transfer',
      timestamp: 1706896016,
    });
    expect(normaliseEvent({ ...base, to_address: '0x0' })?.kind).toBe('burn');
  });

  it('reads sale records of the deployed shape', () => {
    const { contract_address: _c, contract_type: _t, ...rest } = base;
    const sale = normaliseEvent({
      ...rest,
      event_type: 'sale',
      nft_contract_address: A('ABC').toUpperCase().replace('0X', '0x'),
      price: '50000000000000000',
      quantity: '1',
      marketplace_name: 'Element',
      marketplace_contract_address: A('99'),
      currency_address: '',
      extra_field: { nested: true },
    });
    expect(sale).toMatchObject({
      kind: 'sale',
      contractAddress: A('abc'),
      price: '50000000000000000',
      marketplaceName: 'Element',
    });
    expect(sale).not.toHaveProperty('currencyAddress');
    expect(sale).not.toHaveProperty('contractType');
  });

  it('keeps unknown labels and takes the token id from hex when decimal is missing', () => {
    expect(normaliseEvent({ ...base, event_type: 'listing', token_id: '' })).toMatchObject({
      kind: 'other',
      label: 'listing',
      tokenId: String(0xd10e4),
    });
  });

  it('refuses records it cannot read', () => {
    expect(normaliseEvent(null)).toBeNull();
    expect(normaliseEvent({ ...base, timestamp: 'yesterday' })).toBeNull();
    expect(normaliseEvent({ ...base, from_address: 'nobody' })).toBeNull();
    expect(normaliseEvent({ ...base, token_id: 'x', token_id_hex: undefined })).toBeNull();
    expect(normaliseEvent({ ...base, timestamp: { at: 1 } })).toBeNull();
  });

  it('gives distinct keys to a sale and a transfer sharing an event id', () => {
    const transfer = normaliseEvent({ ...base, event_id: A('d10e4') });
    const sale = normaliseEvent({ ...base, event_id: A('d10e4'), event_type: 'sale' });
    expect(transfer?.key).not.toBe(sale?.key);
  });
});

describe('normaliseContract', () => {
  it('treats empty strings as missing', () => {
    expect(
      normaliseContract({
        contract_address: '0xABC',
        contract_type: 'ERC1155',
        name: '',
        symbol: '',
        image: '',
        chain_id: 'SN_MAIN',
      }),
    ).toEqual({ address: A('abc'), type: 'ERC1155' });
  });
});

/**
 * A NUL (`\u0000`) in any text the service sends: PostgreSQL's text columns refuse it, so
 * a NUL let through made a whole page's ingest fail. Text loses it and keeps the rest;
 * a value the normaliser checks (an address, a token id, a time) is unreadable with it.
 */
describe('NUL in the service’s text', () => {
  const NUL = '\u0000';
  const hasNul = (value: unknown) => JSON.stringify(value).includes('\\u0000');

  it('is removed from every text field of an event record, the rest kept', () => {
    const event = normaliseEvent({
      ...base,
      contract_type: `ERC${NUL}721`,
      event_id: `${NUL}${A('e1')}`,
      event_type: `sale${NUL}`,
      price: `${NUL}500${NUL}`,
      quantity: `1${NUL}`,
      marketplace_name: `${NUL}Ele${NUL}ment ${NUL}`,
    });
    expect(event).toMatchObject({
      contractType: 'ERC721',
      eventId: A('e1'),
      kind: 'sale',
      label: 'sale',
      price: '500',
      quantity: '1',
      marketplaceName: 'Element',
    });
    expect(hasNul(event)).toBe(false);
  });

  it('reads a field that is only NUL as missing', () => {
    expect(
      normaliseEvent({ ...base, event_type: NUL, event_id: NUL, marketplace_name: `${NUL} ` }),
    ).toEqual(normaliseEvent({ ...base, event_type: '', event_id: '', marketplace_name: '' }));
  });

  it('makes an address, token id or time unreadable, never an exception', () => {
    for (const field of ['contract_address', 'from_address', 'to_address', 'timestamp']) {
      const record = { ...base, [field]: `${String(base[field as keyof typeof base])}${NUL}` };
      expect(normaliseEvent(record), field).toBeNull();
    }
    expect(normaliseEvent({ ...base, token_id: `85${NUL}6292`, token_id_hex: '' })).toBeNull();
    expect(
      normaliseEvent({ ...base, token_id: '', token_id_hex: `${NUL}${A('d10e4')}` }),
    ).toBeNull();
    const sale = normaliseEvent({
      ...base,
      event_type: 'sale',
      transaction_hash: `${A('7')}${NUL}`,
      marketplace_contract_address: `${A('99')}${NUL}`,
      currency_address: `${NUL}${A('e7')}`,
    });
    expect(sale).toMatchObject({ transactionHash: '' });
    expect(sale).not.toHaveProperty('marketplaceAddress');
    expect(sale).not.toHaveProperty('currencyAddress');
  });

  it('is removed from every text field of a contract record', () => {
    const contract = normaliseContract({
      contract_address: A('abc'),
      contract_type: `${NUL}ERC1155`,
      name: `Loot${NUL}${NUL} Survivor`,
      symbol: `LS${NUL}`,
      image: `https://example.com/${NUL}a.png`,
    });
    expect(contract).toEqual({
      address: A('abc'),
      type: 'ERC1155',
      name: 'Loot Survivor',
      symbol: 'LS',
      image: 'https://example.com/a.png',
    });
    expect(normaliseContract({ contract_address: `${A('abc')}${NUL}`, name: 'x' })).toBeNull();
    expect(normaliseContract({ contract_address: A('abc'), name: NUL })).toEqual({
      address: A('abc'),
    });
  });
});
