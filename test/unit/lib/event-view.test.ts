import { describe, expect, it } from 'vitest';
import {
  isFiltered,
  parseEventView,
  readEventSearch,
  viewApiParams,
} from '../../../src/lib/event-view';

describe('a collection view’s wash switch in the URL', () => {
  it('is wash=exclude, wash=only or absent, and goes to every API parameter set', () => {
    const only = parseEventView(new URLSearchParams('wash=only'));
    expect(only.wash).toBe('only');
    expect(isFiltered(only)).toBe(true);
    expect(readEventSearch(new URLSearchParams('wash=only&time=abs')).search).toBe(
      '?time=abs&wash=only',
    );
    expect(viewApiParams(only, false).get('wash')).toBe('only');
    const view = parseEventView(new URLSearchParams('wash=exclude&kind=sale'));
    expect(view.wash).toBe('exclude');
    expect(isFiltered(view)).toBe(true);
    expect(readEventSearch(new URLSearchParams('wash=exclude&kind=sale')).search).toBe(
      '?kind=sale&wash=exclude',
    );
    expect(viewApiParams(view, true).get('wash')).toBe('exclude');
    expect(viewApiParams(view, false).get('wash')).toBe('exclude');
    for (const value of ['include', 'EXCLUDE', '1', '']) {
      const other = new URLSearchParams(`wash=${value}`);
      expect(parseEventView(other).wash).toBeNull();
      expect(readEventSearch(other).search).toBe('');
    }
  });
});
