import { describe, expect, it } from 'vitest';
import {
  canonicalEventSearch,
  isFiltered,
  parseEventView,
  viewApiParams,
} from '../../../src/lib/event-view';

describe('a collection view’s wash switch in the URL', () => {
  it('is wash=exclude or absent, and goes to every API parameter set', () => {
    const view = parseEventView(new URLSearchParams('wash=exclude&kind=sale'));
    expect(view.excludeWash).toBe(true);
    expect(isFiltered(view)).toBe(true);
    expect(canonicalEventSearch(new URLSearchParams('wash=exclude&kind=sale'))).toBe(
      '?kind=sale&wash=exclude',
    );
    expect(viewApiParams(view, true).get('wash')).toBe('exclude');
    expect(viewApiParams(view, false).get('wash')).toBe('exclude');
    for (const value of ['include', 'EXCLUDE', '1', '']) {
      const other = new URLSearchParams(`wash=${value}`);
      expect(parseEventView(other).excludeWash).toBe(false);
      expect(canonicalEventSearch(other)).toBe('');
    }
  });
});
