import { describe, expect, it } from 'vitest';
import { asOfParamProblem, canonicalHoldersSearch } from '../../../src/lib/holders-view';
import { canonicalMarketSearch, marketSpanProblem } from '../../../src/lib/market-view';
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
    const future = new URLSearchParams('from=2030-01-01&to=2030-02-01&wash=exclude');
    expect(marketSpanProblem(future, NOW_MS)).toMatch(/“from” \(2030-01-01\) is in the future/);
    expect(canonicalMarketSearch(future, NOW_MS)).toBe('?wash=exclude');
    const past = new URLSearchParams('from=2026-01-01&to=2030-02-01');
    expect(marketSpanProblem(past, NOW_MS)).toBeNull();
    expect(canonicalMarketSearch(past, NOW_MS)).toBe('?from=2026-01-01&to=2030-02-01');
  });

  it('an asOf that is no day or after today says why; today and before say nothing', () => {
    expect(asOfParamProblem('yesterday', NOW_MS)).toMatch(/“yesterday” is not a day/);
    expect(asOfParamProblem('2030-01-01', NOW_MS)).toMatch(
      /“2030-01-01” is after today \(2026-11-27, UTC\)/,
    );
    expect(asOfParamProblem('2026-11-27', NOW_MS)).toBeNull();
    expect(asOfParamProblem(null, NOW_MS)).toBeNull();
    expect(canonicalHoldersSearch(new URLSearchParams('asOf=2030-01-01&time=abs'), NOW_MS)).toBe(
      '?time=abs',
    );
  });
});
