import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createImages, type ImageOptions } from '../../../src/server/images/images';
import { patternPng } from '../../../src/server/sample-service/pattern-png';
import { PNG } from './pictures';

const A = '0x' + '0'.repeat(60) + 'abcd';
const GIF = Buffer.from('R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64');

/** The index's contracts table as the route reads it: one contract and its image. */
function contractsTable(image: string | null) {
  const queries: unknown[][] = [];
  const pool = {
    query: (_sql: string, values: unknown[]) => {
      queries.push(values);
      return Promise.resolve({ rows: values[0] === A ? [{ image }] : [] });
    },
  } as unknown as pg.Pool;
  return { pool, queries };
}

function images(image: string | null, options: Partial<ImageOptions> = {}) {
  const { pool, queries } = contractsTable(image);
  // Nothing resolves: a remote image fails at once, and says so.
  const fetch = { resolve: () => Promise.resolve([]) };
  return {
    ...createImages({
      enabled: true,
      ipfsGateway: 'https://gw.test/ipfs/',
      fetch,
      ...options,
      pool,
    }),
    queries,
  };
}

const path = (address = A) => `/api/images/contracts/${address}?v=1`;

describe('contract images', () => {
  it('serves an inline picture from our origin, typed from its bytes, as nothing but a picture', async () => {
    const { app } = images(`data:image/png;base64,${PNG.toString('base64')}`);
    const response = await app.request(path());
    expect(response.status).toBe(200);
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(new Uint8Array(PNG));
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('content-security-policy')).toBe("default-src 'none'");
    expect(response.headers.get('cache-control')).toBe('public, max-age=86400');
  });

  it("serves the sample service's pictures, offline", async () => {
    const { app } = images(patternPng(0b101_010_101_010_101, 200));
    const response = await app.request(path());
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
  });

  it('types a picture by its bytes, not by what its source says', async () => {
    const { app } = images(`data:image/png;base64,${GIF.toString('base64')}`);
    expect((await app.request(path())).headers.get('content-type')).toBe('image/gif');
  });

  it.each([
    [
      'an SVG',
      'data:image/svg+xml,%3Csvg%20xmlns%3D%22http%3A%2F%2Fwww.w3.org%2F2000%2Fsvg%22%2F%3E',
    ],
    ['an http URL', 'http://images.example/a.png'],
    ['a script URL', 'javascript:alert(1)'],
    ['no image', ''],
    ['an inline page called a picture', 'data:image/png,%3Chtml%3E'],
  ])('answers %s with a 404 that says why, kept for a while', async (_what, image) => {
    const { app } = images(image);
    const response = await app.request(path());
    expect(response.status).toBe(404);
    expect(response.headers.get('cache-control')).toBe('public, max-age=600');
    const body = (await response.json()) as { error: { kind: string; message: string } };
    expect(body.error.kind).toBe('not_found');
    expect(body.error.message).toMatch(/image/);
  });

  it('asks a failing host once, not once per visitor', async () => {
    let lookups = 0;
    const resolve = () => (lookups++, Promise.resolve(['10.0.0.1']));
    const { app, stats } = images('https://tracker.example/pixel.png', { fetch: { resolve } });
    for (let i = 0; i < 3; i++) {
      const response = await app.request(path());
      expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(
        /tracker\.example is at 10\.0\.0\.1, not a public address/,
      );
    }
    expect(lookups).toBe(1);
    expect(stats().fetches).toBe(1);
  });

  it('maps ipfs:// to the gateway', async () => {
    const asked: string[] = [];
    const resolve = (name: string) => (asked.push(name), Promise.resolve([]));
    const { app } = images('ipfs://bafy123/1.png', { fetch: { resolve } });
    await app.request(path());
    expect(asked).toEqual(['gw.test']);
  });

  it('serves nothing and reads nothing when turned off', async () => {
    const { app, queries } = images(`data:image/png;base64,${PNG.toString('base64')}`, {
      enabled: false,
    });
    const response = await app.request(path());
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(
      /turned off/,
    );
    expect(queries).toEqual([]);
  });

  it('refuses a path that names no address, and reads an address in its canonical form', async () => {
    const { app, queries } = images(null);
    expect((await app.request(path('nonsense'))).status).toBe(400);
    expect(queries).toEqual([]);
    expect((await app.request(path('0xABCD'))).status).toBe(404);
    expect(queries).toEqual([[A]]);
  });
});
