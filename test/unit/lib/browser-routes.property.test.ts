import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseAddress } from '../../../src/lib/address';
import { parseLookup } from '../../../src/lib/lookup';
import { repairPercentEncoding } from '../../../src/lib/routes';
import { parseTokenId } from '../../../src/lib/token-id';
import { readEventSearch } from '../../../src/lib/event-view';
import { readHoldersSearch } from '../../../src/lib/holders-view';
import { readMarketSearch } from '../../../src/lib/market-view';
import type { SearchReading } from '../../../src/lib/param-reading';
import { readRankingSearch } from '../../../src/lib/ranking-view';
import { readWebhooksSearch } from '../../../src/lib/webhooks';

// Arbitrary text, plus the characters that matter in URLs and hex.
const text = fc.oneof(
  fc.string({ maxLength: 120 }),
  fc.stringMatching(/^(0x|0X)?[0-9a-fA-F%/?#&=+ .-]{0,90}$/),
);

describe('browser route inputs', () => {
  it('route parameters: an address or token id is canonical or refused with a message', () => {
    fc.assert(
      fc.property(text, (raw) => {
        const address = parseAddress(raw);
        if (address.ok) expect(address.value).toMatch(/^0x[0-9a-f]{64}$/);
        else expect(address.error).not.toBe('');
        const tokenId = parseTokenId(raw);
        if (!tokenId.ok) expect(tokenId.error).not.toBe('');
      }),
    );
  });

  it('search strings: every page reads any search without throwing, idempotently, and its canonical one says nothing left out', () => {
    const NOW_MS = Date.UTC(2026, 10, 27, 15);
    const readers: [keys: string[], read: (params: URLSearchParams) => SearchReading][] = [
      [
        ['sort', 'kind', 'address', 'time', 'currency', 'wash', 'token', 'minPrice', 'maxPrice'],
        readEventSearch,
      ],
      [['window', 'sort', 'currency', 'q', 'wash'], readRankingSearch],
      [['asOf', 'time'], (params) => readHoldersSearch(params, NOW_MS)],
      [['from', 'to', 'wash', 'time'], (params) => readMarketSearch(params, NOW_MS)],
      [['kind', 'view', 'log'], (params) => readWebhooksSearch(params).reading],
    ];
    for (const [keys, read] of readers) {
      const values = fc.oneof(
        text,
        fc.constantFrom(
          'ETH',
          '-time',
          'exclude',
          'abs',
          '12',
          'sale',
          'holders',
          '/contracts/0x1?kind=sale',
        ),
      );
      const params = fc.array(fc.tuple(fc.constantFrom(...keys, 'x'), values), { maxLength: 6 });
      fc.assert(
        fc.property(params, (entries) => {
          const { search } = read(new URLSearchParams(entries));
          expect(search === '' || search.startsWith('?')).toBe(true);
          expect(read(new URLSearchParams(search))).toEqual({ search, reasons: [] });
          for (const key of new URLSearchParams(search).keys()) expect(keys).toContain(key);
        }),
      );
    }
  });

  it('the lookup box: a target with canonical values, or a message', () => {
    fc.assert(
      fc.property(text, text, fc.constantFrom(' ', '/', ':', '#', ''), (a, b, separator) => {
        const parsed = parseLookup(`${a}${separator}${b}`);
        if (parsed.ok) {
          expect(parsed.value.address).toMatch(/^0x[0-9a-f]{64}$/);
          if (parsed.value.tokenId !== undefined)
            expect(parsed.value.tokenId).toMatch(/^(0|[1-9][0-9]*)$/);
        } else {
          expect(parsed.error).not.toBe('');
        }
      }),
    );
  });
});

describe('repairPercentEncoding', () => {
  it.each([
    ['/contracts/0x12%zz', '/contracts/0x12%25zz'],
    ['/contracts/%E0%A4%A', '/contracts/%25E0%25A4%25A'],
    ['/contracts/0xab/tokens/%', '/contracts/0xab/tokens/%25'],
  ])('%s → %s', (path, repaired) => {
    expect(repairPercentEncoding(path)).toBe(repaired);
    // Repaired, it decodes to the text that was typed.
    expect(decodeURIComponent(repaired)).toBe(path);
  });

  it('repairs exactly the segments decodeURIComponent refuses', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9a-fA-FxzZ%-]{0,12}$/), (segment) => {
        let refused = false;
        try {
          decodeURIComponent(segment);
        } catch {
          refused = true;
        }
        expect(repairPercentEncoding(segment) !== segment).toBe(refused && segment.includes('%'));
        // Repaired, it always decodes, to the text it was.
        expect(decodeURIComponent(repairPercentEncoding(segment))).toBe(
          refused ? segment : decodeURIComponent(segment),
        );
      }),
    );
  });

  it('leaves every decodable path as it is', () => {
    fc.assert(
      fc.property(fc.array(fc.string(), { maxLength: 4 }), (segments) => {
        const path = `/${segments.map(encodeURIComponent).join('/')}`;
        expect(repairPercentEncoding(path)).toBe(path);
      }),
    );
  });
});
