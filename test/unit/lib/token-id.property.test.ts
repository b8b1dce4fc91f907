import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalAddress, parseAddress } from '../../../src/lib/address';
import {
  MAX_TOKEN_ID,
  parseTokenId,
  tokenIdToDecimal,
  tokenIdToHex,
} from '../../../src/lib/token-id';

const tokenIds = fc.bigInt({ min: 0n, max: MAX_TOKEN_ID });

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
