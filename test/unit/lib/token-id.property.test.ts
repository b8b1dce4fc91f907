import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normaliseEvent } from '../../../src/lib/normalise';
import { canonicalAddress, isCanonicalAddress, parseAddress } from '../../../src/lib/address';
import {
  MAX_TOKEN_ID,
  parseTokenId,
  tokenIdToDecimal,
  tokenIdToHex,
} from '../../../src/lib/token-id';

const tokenIds = fc.bigInt({ min: 0n, max: MAX_TOKEN_ID });
const HEX64 = (digits: string) => `0x${digits.padStart(64, '0')}`;
const RECORD = {
  contract_address: HEX64('abc'),
  event_id: HEX64('e1'),
  event_type: 'transfer',
  from_address: HEX64('1'),
  to_address: HEX64('2'),
  timestamp: 1706896016,
  transaction_hash: HEX64('7'),
};

describe('token ids', () => {
  it('decimal and hex spellings of an id parse to the same value', () => {
    fc.assert(
      fc.property(tokenIds, fc.boolean(), fc.nat(5), (id, upper, zeros) => {
        const hex = `0x${'0'.repeat(zeros)}${id.toString(16)}`;
        const fromHex = parseTokenId(upper ? hex.toUpperCase().replace('0X', '0x') : hex);
        const fromDecimal = parseTokenId(tokenIdToDecimal(id));
        expect(fromHex).toEqual({ ok: true, value: id });
        expect(fromDecimal).toEqual({ ok: true, value: id });
      }),
    );
  });

  it('the padded hex form round-trips and has 64 digits', () => {
    fc.assert(
      fc.property(tokenIds, (id) => {
        const hex = tokenIdToHex(id);
        expect(hex).toMatch(/^0x[0-9a-f]{64}$/);
        expect(parseTokenId(hex)).toEqual({ ok: true, value: id });
      }),
    );
  });

  it('anything else is refused with a message, never a throw', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 100 }), (text) => {
        const parsed = parseTokenId(text);
        if (parsed.ok) {
          expect(parsed.value >= 0n && parsed.value <= MAX_TOKEN_ID).toBe(true);
          expect(/^\s*([0-9]+|0x[0-9a-fA-F]+)\s*$/.test(text)).toBe(true);
        } else {
          expect(parsed.error.length).toBeGreaterThan(0);
        }
      }),
    );
    expect(parseTokenId((MAX_TOKEN_ID + 1n).toString()).ok).toBe(false);
    expect(parseTokenId('9'.repeat(100_000)).ok).toBe(false);
    expect(parseTokenId('-1').ok).toBe(false);
    expect(parseTokenId('1e5').ok).toBe(false);
  });
});

describe('addresses', () => {
  const addresses = fc.bigInt({ min: 0n, max: (1n << 252n) - 1n });

  it('short, padded and upper-case forms all canonicalise to 0x + 64 lowercase digits', () => {
    fc.assert(
      fc.property(addresses, fc.boolean(), fc.boolean(), (value, pad, upper) => {
        const digits = value.toString(16);
        const text = `0x${pad ? digits.padStart(64, '0') : digits}`;
        const canonical = `0x${digits.padStart(64, '0')}`;
        expect(canonicalAddress(upper ? text.toUpperCase().replace('0X', '0x') : text)).toBe(
          canonical,
        );
        expect(canonicalAddress(canonical)).toBe(canonical);
      }),
    );
  });

  it('refuses non-addresses with a message', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (text) => {
        const parsed = parseAddress(text);
        if (parsed.ok) expect(parsed.value).toMatch(/^0x[0-9a-f]{64}$/);
        else expect(parsed.error.length).toBeGreaterThan(0);
      }),
    );
    for (const bad of ['', '0x', 'abc', `0x${'1'.repeat(65)}`, '0xg1', '1234']) {
      expect(parseAddress(bad).ok).toBe(false);
    }
  });
});

describe('the normaliser’s fast paths agree with the full parsers', () => {
  const hexChars = fc.constantFrom(...'0123456789abcdefABCDEFxg '.split(''));
  const addressLike = fc.oneof(
    fc.stringMatching(/^0x[0-9a-f]{64}$/),
    fc.string({ unit: hexChars, minLength: 60, maxLength: 70 }).map((rest) => `0x${rest}`),
    fc.string({ maxLength: 70 }),
  );

  it('an address is canonical exactly when parsing leaves it unchanged', () => {
    fc.assert(
      fc.property(addressLike, (text) => {
        expect(isCanonicalAddress(text)).toBe(canonicalAddress(text) === text);
      }),
      { numRuns: 2000 },
    );
  });

  it('a record’s decimal token id reads as its canonical decimal, with or without leading zeros', () => {
    fc.assert(
      fc.property(tokenIds, fc.nat(2), (id, zeros) => {
        const raw = { ...RECORD, token_id: `${'0'.repeat(zeros)}${id}`, token_id_hex: '' };
        expect(normaliseEvent(raw)?.tokenId).toBe(tokenIdToDecimal(id));
      }),
    );
  });
});
