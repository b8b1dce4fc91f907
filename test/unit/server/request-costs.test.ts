import { describe, expect, it } from 'vitest';
import { createRequestCosts, requestKind } from '../../../src/server/http/request-costs';

const ADDRESS = '0x' + 'ab12'.repeat(16);

describe('kinds of request', () => {
  it.each([
    [`/api/collections/${ADDRESS}/export`, '/api/collections/:/export'],
    [`/api/preview/collections/${ADDRESS}/tokens/12.png`, '/api/preview/collections/:/tokens/:'],
    [`/collections/${ADDRESS}`, '/collections/:'],
    ['/assets/index-abc123.js', '/assets/:'],
    ['/wallets', '/wallets'],
  ])('%s is %s', (path, kind) => {
    expect(requestKind(path)).toBe(kind);
  });
});

describe('costly kinds', () => {
  it('makes a kind costly after slow answers, and light again after quick ones', () => {
    const costs = createRequestCosts(100);
    expect(costs.costly('/export')).toBe(false);
    costs.record('/export', 2_000);
    expect(costs.costly('/export')).toBe(true);
    for (let i = 0; i < 20; i += 1) costs.record('/export', 10);
    expect(costs.costly('/export')).toBe(false);
  });

  it('never makes a quick kind costly, however often it is asked', () => {
    const costs = createRequestCosts(100);
    for (let i = 0; i < 1_000; i += 1) costs.record('/events', 30);
    expect(costs.costly('/events')).toBe(false);
  });

  it('keeps a page light beside an export when the whole machine is ten times slower', () => {
    const costs = createRequestCosts(100);
    for (const slower of [1, 10]) {
      for (let i = 0; i < 20; i += 1) {
        costs.record('/events', 30 * slower);
        costs.record('/export', 2_000 * slower);
      }
      expect([costs.costly('/events'), costs.costly('/export')]).toEqual([false, true]);
    }
  });

  it('keeps a bounded number of kinds, whatever paths are asked', () => {
    const costs = createRequestCosts(100, 10);
    costs.record('/export', 2_000);
    for (let i = 0; i < 100; i += 1) costs.record(`/page-${'x'.repeat(i)}`, 1);
    // Forgotten: a kind not seen lately is light until it is measured again.
    expect(costs.costly('/export')).toBe(false);
  });
});
