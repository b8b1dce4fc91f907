import { describe, expect, it } from 'vitest';
import { readEventSearch } from '../../../src/lib/event-view';
import { asOfParamProblem, readHoldersSearch } from '../../../src/lib/holders-view';
import { readMarketSearch } from '../../../src/lib/market-view';
import { readRankingSearch } from '../../../src/lib/ranking-view';
import { parseTimeSpan, spanProblem } from '../../../src/lib/time-span';

const NOW_MS = Date.UTC(2026, 10, 27, 15);

describe('values of a link left out of its view, and why', () => {
  it('every span the URL cannot give says why; a span it gives says nothing', () => {
    const cases: [string | null, string | null, RegExp | null][] = [
      [null, null, null],
      ['2025-06-01', '2025-06-10', null],
      ['2025-06-10', '2025-06-01', /“from” \(2025-06-10\) is not before “to” \(2025-06-01\)/],
      ['2025-06-10', '2025-06-10', /is not before/],
      ['yesterday', '2025-06-10', /“yesterday” is not a date for “from”/],
      ['2025-06-01', '2025-02-30', /“2025-02-30” is not a date for “to”/],
      ['2025-06-01', null, /has “from” without “to”/],
      [null, '2025-06-01', /has “to” without “from”/],
    ];
    for (const [from, to, problem] of cases) {
      const said = spanProblem(from, to);
      if (problem) expect(said).toMatch(problem);
      else expect(said).toBeNull();
      // Said exactly when the span is not taken.
      expect(said === null).toBe(parseTimeSpan(from, to) !== null || (from ?? to) === null);
    }
  });

  it('a market span starting after now is the whole history, and says so', () => {
    const future = readMarketSearch(
      new URLSearchParams('from=2030-01-01&to=2030-02-01&wash=exclude'),
      NOW_MS,
    );
    expect(future.reasons).toEqual([
      expect.stringMatching(/“from” \(2030-01-01\) is in the future/),
    ]);
    expect(future.search).toBe('?wash=exclude');
    const past = readMarketSearch(new URLSearchParams('from=2026-01-01&to=2030-02-01'), NOW_MS);
    expect(past).toEqual({ search: '?from=2026-01-01&to=2030-02-01', reasons: [] });
  });

  it('an asOf that is no day or after today says why; today and before say nothing', () => {
    expect(asOfParamProblem('yesterday', NOW_MS)).toMatch(/“yesterday” is not a day/);
    expect(asOfParamProblem('2030-01-01', NOW_MS)).toMatch(
      /“2030-01-01” is after today \(2026-11-27, UTC\)/,
    );
    expect(asOfParamProblem('2026-11-27', NOW_MS)).toBeNull();
    expect(asOfParamProblem(null, NOW_MS)).toBeNull();
    expect(readHoldersSearch(new URLSearchParams('asOf=2030-01-01&time=abs'), NOW_MS).search).toBe(
      '?time=abs',
    );
  });

  /** The reasons a search gives, and what it keeps. */
  const read = (search: string) => readEventSearch(new URLSearchParams(search));
  const ETH = 'currency=ETH';

  it.each([
    [
      'sort=banana',
      /“sort=banana” is no sort of this list \(time, price, token, kind; .*\): newest first is shown/,
    ],
    [
      'kind=foo',
      /“kind=foo”: “foo” is no kind of event \(mint, transfer, sale, burn, other\): every kind is shown/,
    ],
    [
      'address=0xzz',
      /“address=0xzz” is not an address .*: events of every sender and receiver are shown/,
    ],
    [
      'currency=DOGE',
      /“currency=DOGE” is no currency \(ETH, STRK, USDC, none.*\): sales in every currency are shown/,
    ],
    ['wash=maybe', /“wash=maybe” is no choice of flagged sales \(exclude or only\)/],
    [`marketplace=${'m'.repeat(101)}`, /is no marketplace’s name \(at most 100 characters/],
    ['marketplace=a%00b', /is no marketplace’s name \(.*no control characters\)/],
    ['time=later', /“time=later” is no time display \(abs or rel\): your own setting is used/],
    ['token=12ab', /“token=12ab” is not a token id: .*Every token is shown/],
    [`token=${'9'.repeat(80)}`, /is not a token id: This token id is too large/],
    [`minPrice=0.5&${ETH}`, /“minPrice=0.5” is not a price in base units/],
    [`maxPrice=-1&${ETH}`, /“maxPrice=-1” is not a price in base units/],
    ['minPrice=5', /A price range needs one currency/],
    [
      `minPrice=9&maxPrice=5&${ETH}`,
      /“minPrice” \(9\) is above “maxPrice” \(5\): the price range was left out/,
    ],
    ['colour=red', /“colour” is not a setting of this page/],
    ['kind=sale&kind=mint', /“kind” is in the link more than once: the first “kind” is read/],
  ])('a collection’s %s is left out, saying why', (search, reason) => {
    const { reasons } = read(search);
    expect(reasons).toHaveLength(1);
    expect(reasons[0]).toMatch(reason);
  });

  it('a collection keeps the values it can take beside those it cannot', () => {
    const reading = read(`kind=sale,foo&sort=banana&token=0x10&minPrice=0500&${ETH}&junk=1`);
    expect(reading.search).toBe('?currency=ETH&kind=sale&minPrice=500&token=16');
    expect(reading.reasons).toEqual([
      expect.stringMatching(/“foo” is no kind of event .*: left out/),
      expect.stringMatching(/“sort=banana”/),
      expect.stringMatching(/“junk”/),
    ]);
  });

  it('canonical spellings are no loss: case, padding, hex ids and defaults say nothing', () => {
    const reading = read('kind=SALE&address=0xABC&sort=-time&token=0xff&currency=eth&wash=include');
    expect(reading.reasons).toEqual([]);
    expect(reading.search).toBe(
      `?address=0x${'abc'.padStart(64, '0')}&currency=ETH&kind=sale&token=255`,
    );
  });

  it.each([
    ['window=fortnight', /“window=fortnight” is no window of the ranking \(24h, 7d, 30d, all\)/],
    ['sort=colour', /“sort=colour” is no sort of this list .*: the most events first is shown/],
    ['currency=DOGE', /“currency=DOGE” is no currency the ranking counts/],
    ['wash=only', /“wash=only” is no choice of the ranking/],
    [`q=${'a'.repeat(201)}`, /longer than 200 characters/],
    ['page=2', /“page” is not a setting of this page/],
  ])('the ranking’s %s is left out, saying why', (search, reason) => {
    const { reasons } = readRankingSearch(new URLSearchParams(search));
    expect(reasons).toHaveLength(1);
    expect(reasons[0]).toMatch(reason);
  });

  it('holders and market: a bad time display, wash or key says why', () => {
    expect(readHoldersSearch(new URLSearchParams('time=x&owner=1'), NOW_MS).reasons).toEqual([
      expect.stringMatching(/“time=x” is no time display/),
      expect.stringMatching(/“owner” is not a setting of this page/),
    ]);
    expect(readMarketSearch(new URLSearchParams('wash=only'), NOW_MS).reasons).toEqual([
      expect.stringMatching(/“wash=only” is no choice of this page/),
    ]);
  });
});
