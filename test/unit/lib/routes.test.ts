import fc from 'fast-check';
import { matchRoutes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { matchRoute, routePatterns, type RouteName } from '../../../src/lib/routes';

// The browser router's own matching, over the same patterns.
const routerRoutes = Object.entries(routePatterns).map(([name, path]) => ({ id: name, path }));
const routerMatch = (path: string): RouteName | null =>
  (matchRoutes(routerRoutes, path)?.[0]?.route.id as RouteName | undefined) ?? null;

const ADDRESS = `0x${'ab'.repeat(32)}`;

describe('matchRoute', () => {
  it.each([
    ['/', 'home'],
    ['/contracts', 'contracts'],
    ['/contracts/', 'contracts'],
    [`/contracts/${ADDRESS}`, 'contractEvents'],
    [`/Contracts/${ADDRESS}`, 'contractEvents'],
    [`/contracts/${ADDRESS}/tokens/777`, 'tokenHistory'],
    [`/contracts/${ADDRESS}/holders`, 'holders'],
    [`/contracts/${ADDRESS}/market`, 'market'],
    [`/addresses/${ADDRESS}`, 'wallet'],
    ['/transactions/0x12', 'transaction'],
    [`/contracts/${ADDRESS}/elsewhere`, null],
    ['/nowhere', null],
  ])('%s is %s', (path, name) => {
    expect(matchRoute(path)).toBe(name);
  });

  it('names the route the browser router matches, for any path of segments', () => {
    const segment = fc.oneof(
      fc.constantFrom('contracts', 'Contracts', 'tokens', 'holders', 'market', 'addresses'),
      fc.constantFrom('transactions', ADDRESS, '777', '0x1', ''),
      fc.stringMatching(/^[a-z0-9]{1,6}$/),
    );
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 5 }), fc.boolean(), (segments, slash) => {
        const path = `/${segments.join('/')}${slash ? '/' : ''}`;
        expect(matchRoute(path)).toBe(routerMatch(path));
      }),
      { numRuns: 1_000 },
    );
  });
});
