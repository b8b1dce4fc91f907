import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_LIMIT, matchApiRequest, type RouteMatch } from '../../../src/server/proxy/route-match';

/**
 * Whatever arrives, `matchApiRequest` answers with canonical values or a clear error, and
 * never throws; whatever it forwards is made only of characters it has validated.
 */
const ORIGIN = 'http://proxy.test';
const CURSOR = /^[A-Za-z0-9._~+/=-]{1,512}$/;
// Canonical route, then an optional query that URLSearchParams wrote from validated values.
const SAFE_UPSTREAM_PATH =
  /^\/v1\/(contracts|events\/0x[0-9a-f]{64}(\/(0|[1-9][0-9]{0,77}))?)(\?(cursor=[A-Za-z0-9._%-]+(&limit=[1-9][0-9]*)?|limit=[1-9][0-9]*))?$/;
const RUNS = { numRuns: 500 };

function match(pathAndQuery: string): RouteMatch | undefined {
  let url: URL;
  try {
    url = new URL(ORIGIN + pathAndQuery);
  } catch {
    return undefined; // not a request that could reach us
  }
  return matchApiRequest(url);
}

/** The properties every answer must have. */
function checkAnswer(result: RouteMatch | undefined) {
  if (result === undefined) return;
  expect(['matched', 'not_found', 'bad_request']).toContain(result.kind);
  if (result.kind === 'bad_request') {
    expect(typeof result.message).toBe('string');
    expect(result.message.length).toBeGreaterThan(10);
  }
  if (result.kind === 'matched') {
    const { upstreamPath } = result.request;
    expect(upstreamPath).toMatch(SAFE_UPSTREAM_PATH);
    // Canonical: matching what we forward gives back the same request.
    const again = match(`/api${upstreamPath}`);
    expect(again).toEqual(result);
  }
}

// Strings that look like what an attacker or a confused client sends.
const hostileSegment = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 80 }),
  fc.string({
    unit: fc.constantFrom(
      '%',
      '2',
      'e',
      'E',
      'f',
      'F',
      '/',
      '\\',
      '.',
      '0',
      'x',
      ':',
      '@',
      '?',
      '#',
      ';',
      '\0',
      ' ',
    ),
    maxLength: 40,
  }),
  fc.stringMatching(/^0x[0-9a-fA-F]{0,70}$/),
  fc.stringMatching(/^[0-9]{0,90}$/),
);

describe('matchApiRequest under arbitrary input', () => {
  it('never throws for any path segments', () => {
    fc.assert(
      fc.property(hostileSegment, hostileSegment, (address, tokenId) => {
        checkAnswer(match(`/api/v1/events/${address}`));
        checkAnswer(match(`/api/v1/events/${address}/${tokenId}`));
        checkAnswer(match(`/api/v1/${address}`));
        checkAnswer(match(`/api/${address}/contracts`));
      }),
      RUNS,
    );
  });

  it('never throws for any query names and values', () => {
    const name = fc.oneof(
      fc.constantFrom('cursor', 'limit'),
      fc.string({ unit: 'binary', maxLength: 20 }),
    );
    const value = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 40 }),
      fc.integer({ min: -10, max: 10_000 }).map(String),
      fc.stringMatching(/^[A-Za-z0-9._~+/=-]{1,20}$/),
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(name, value), { maxLength: 4 }), (pairs) => {
        const query = new URLSearchParams(pairs).toString();
        const result = match(`/api/v1/contracts${query ? `?${query}` : ''}`);
        checkAnswer(result);
        if (result?.kind !== 'matched') return;
        const names = pairs.map(([n]) => n);
        expect(names.every((n) => n === 'cursor' || n === 'limit')).toBe(true);
        expect(new Set(names).size).toBe(names.length);
        const forwarded = new URL(ORIGIN + result.request.upstreamPath).searchParams;
        for (const [n, v] of pairs) {
          if (n === 'cursor') expect(forwarded.get('cursor')).toBe(v);
          if (n === 'limit') {
            const limit = Number(forwarded.get('limit'));
            expect(limit).toBe(Math.min(Number(v), MAX_LIMIT));
            expect(limit >= 1 && limit <= MAX_LIMIT).toBe(true);
          }
        }
      }),
      RUNS,
    );
  });

  it('accepts exactly the cursors of the allowed alphabet and forwards them unchanged', () => {
    const cursor = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 600 }),
      fc.stringMatching(/^[A-Za-z0-9._~+/=-]{1,600}$/),
    );
    fc.assert(
      fc.property(cursor, (value) => {
        const result = match(`/api/v1/contracts?cursor=${encodeURIComponent(value)}`);
        checkAnswer(result);
        expect(result?.kind).toBe(CURSOR.test(value) ? 'matched' : 'bad_request');
        if (result?.kind === 'matched') {
          const forwarded = new URL(ORIGIN + result.request.upstreamPath).searchParams;
          expect(forwarded.get('cursor')).toBe(value);
        }
      }),
      RUNS,
    );
  });

  it('gives every spelling of an address and token id one canonical request', () => {
    const MAX = (1n << 256n) - 1n;
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: MAX }),
        fc.bigInt({ min: 0n, max: MAX }),
        fc.integer({ min: 0, max: 64 }),
        fc.array(fc.boolean(), { minLength: 64, maxLength: 64 }),
        fc.boolean(),
        (address, tokenId, padding, upper, hexId) => {
          const digits = address.toString(16);
          // Any number of leading zeros up to 64 digits, any mix of case.
          const written = `0x${digits.padStart(Math.min(64, digits.length + padding), '0')}`
            .split('')
            .map((ch, i) => (i > 1 && upper[i - 2] ? ch.toUpperCase() : ch))
            .join('');
          const id = hexId ? `0x${tokenId.toString(16).toUpperCase()}` : tokenId.toString();
          expect(match(`/api/v1/events/${written}/${id}`)).toMatchObject({
            kind: 'matched',
            request: {
              upstreamPath: `/v1/events/0x${digits.padStart(64, '0')}/${tokenId.toString()}`,
            },
          });
        },
      ),
      RUNS,
    );
  });

  it('refuses token ids beyond 256 bits in either spelling', () => {
    const address = `0x${'1'.repeat(64)}`;
    fc.assert(
      fc.property(fc.bigInt({ min: 1n << 256n, max: 1n << 300n }), fc.boolean(), (id, hex) => {
        const result = match(`/api/v1/events/${address}/${hex ? `0x${id.toString(16)}` : id}`);
        expect(result?.kind).toBe('bad_request');
      }),
      RUNS,
    );
  });
});
