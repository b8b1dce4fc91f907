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
