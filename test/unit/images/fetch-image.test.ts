import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchImage, type FetchImageOptions } from '../../../src/server/images/fetch-image';
import { isPublicAddress } from '../../../src/server/network-address';
import { PNG } from './pictures';

const fixture = (name: string) =>
  readFileSync(new URL(`fixtures/${name}`, import.meta.url), 'utf8');
const cert = fixture('stand-in.crt');

/**
 * A stand-in image host over https on 127.0.0.1, its certificate for `images.test` and
 * `private.test`. Tests reach it by name through their own resolver: `images.test` is at
 * 127.0.0.1, which their address check lets through as if it were public; `private.test`
 * is at 127.0.0.2, which it does not.
 */
let host: Server;
let port: number;
const requested: string[] = [];

beforeAll(async () => {
  host = createServer({ cert, key: fixture('stand-in.key') }, (request, response) => {
    const path = request.url ?? '/';
    requested.push(path);
    const to = (location: string) => response.writeHead(302, { location }).end();
    if (path === '/good.png') response.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
    else if (path === '/untyped') response.end(PNG);
    else if (path === '/redirect-good') to('/good.png');
    else if (path === '/redirect-private') to(`https://private.test:${port}/good.png`);
    else if (path === '/redirect-metadata') to('https://169.254.169.254/latest/meta-data/');
    else if (path === '/redirect-http') to(`http://images.test:${port}/good.png`);
    else if (path === '/loop') to('/loop');
    else if (path === '/big.png') {
      response.writeHead(200, { 'content-type': 'image/png', 'content-length': 3000 });
      response.end(Buffer.concat([PNG, Buffer.alloc(3000 - PNG.length)]));
    } else if (path === '/big-unsized.png') {
      response.writeHead(200, { 'content-type': 'image/png' });
      response.write(PNG);
      response.end(Buffer.alloc(3000));
    } else if (path === '/page.html')
      response.writeHead(200, { 'content-type': 'text/html' }).end('<p>');
    else if (path === '/lying.png') {
      response.writeHead(200, { 'content-type': 'image/png' }).end('<html><body>hi</body></html>');
    } else if (path === '/icon.svg') {
      response.writeHead(200, { 'content-type': 'image/svg+xml' }).end('<svg/>');
    } else if (path === '/svg-untyped') response.end('<svg xmlns="http://www.w3.org/2000/svg"/>');
    else if (path === '/hang') request.on('close', () => response.destroy());
    else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
  port = (host.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => host.close(() => resolve())));

const NAMES: Record<string, string[]> = {
  'images.test': ['127.0.0.1'],
  'private.test': ['127.0.0.2'],
  'ten.test': ['10.1.2.3'],
  'metadata.test': ['169.254.169.254'],
  'six.test': ['::1'],
  'mapped.test': ['::ffff:127.0.0.1'],
  'mixed.test': ['93.184.216.34', '192.168.1.1'],
};

const options = (more: Partial<FetchImageOptions> = {}): FetchImageOptions => ({
  maxBytes: 2000,
  timeoutMs: 5000,
  maxRedirects: 3,
  resolve: async (name) => NAMES[name] ?? [],
  permits: (address) => address === '127.0.0.1' || isPublicAddress(address),
  ca: cert,
  ...more,
});

const at = (path: string, name = 'images.test') => `https://${name}:${port}${path}`;

async function refusal(url: string, more?: Partial<FetchImageOptions>): Promise<string> {
  const fetched = await fetchImage(url, options(more));
  if (fetched.ok) throw new Error(`${url} was fetched`);
  return fetched.reason;
}

describe('fetchImage', () => {
  // `images.test` has no address but the tests' resolver's: a fetch that works connected to
  // the address checked, not one a second lookup found.
  it('fetches a picture from the checked address, typed from its bytes', async () => {
    const fetched = await fetchImage(at('/good.png'), options());
    expect(fetched).toEqual({ ok: true, bytes: new Uint8Array(PNG), type: 'image/png' });
    // A host that types nothing: the bytes decide.
    expect(await fetchImage(at('/untyped'), options())).toMatchObject({ type: 'image/png' });
  });

  it('follows a redirect to a checked https address', async () => {
    expect(await fetchImage(at('/redirect-good'), options())).toMatchObject({ ok: true });
  });

  it('checks the certificate against the name, not the address it connects to', async () => {
    expect(await refusal(at('/good.png'), { ca: undefined })).toMatch(/could not be fetched/);
  });

  it.each([
    ['loopback', '127.0.0.1'],
    ['private', '10.0.0.1'],
    ['link-local (cloud metadata)', '169.254.169.254'],
    ['IPv6 loopback', '[::1]'],
    ['IPv6 link-local', '[fe80::1]'],
    ['IPv4-mapped loopback', '[::ffff:127.0.0.1]'],
    ['multicast', '224.0.0.1'],
    ['unspecified', '0.0.0.0'],
  ])('refuses a %s address literal without connecting', async (_kind, address) => {
    const before = requested.length;
    expect(await refusal(`https://${address}:${port}/good.png`, { permits: undefined })).toMatch(
      /not a public address/,
    );
    expect(requested.length).toBe(before);
  });

  it.each(['private.test', 'ten.test', 'metadata.test', 'six.test', 'mapped.test', 'mixed.test'])(
    'refuses %s, a name with a non-public address, without connecting',
    async (name) => {
      const before = requested.length;
      expect(await refusal(at('/good.png', name))).toMatch(/not a public address/);
      expect(requested.length).toBe(before);
    },
  );

  it('refuses a redirect to a non-public address', async () => {
    expect(await refusal(at('/redirect-private'))).toMatch(/private\.test is at 127\.0\.0\.2/);
    expect(await refusal(at('/redirect-metadata'))).toMatch(/169\.254\.169\.254/);
    expect(requested.filter((path) => path === '/latest/meta-data/')).toEqual([]);
  });

  it('refuses http, in the first URL or a redirect', async () => {
    expect(await refusal(`http://images.test:${port}/good.png`)).toMatch(/http: is not https:/);
    expect(await refusal(at('/redirect-http'))).toMatch(/http: is not https:/);
    expect(await refusal('file:///etc/passwd')).toMatch(/file: is not https:/);
  });

  it('stops after a few redirects', async () => {
    expect(await refusal(at('/loop'))).toMatch(/more than 3 redirects/);
  });

  it('refuses a picture over the size cap, said or not said in advance', async () => {
    expect(await refusal(at('/big.png'))).toMatch(/larger than 2000 bytes/);
    expect(await refusal(at('/big-unsized.png'))).toMatch(/larger than 2000 bytes/);
  });

  it('refuses what is not a raster picture, whatever its host calls it', async () => {
    expect(await refusal(at('/page.html'))).toMatch(/text\/html is not a picture/);
    expect(await refusal(at('/icon.svg'))).toMatch(/image\/svg\+xml is not a picture/);
    expect(await refusal(at('/lying.png'))).toMatch(/not a PNG, JPEG/);
    expect(await refusal(at('/svg-untyped'))).toMatch(/not a PNG, JPEG/);
    expect(await refusal(at('/missing.png'))).toMatch(/answered 404/);
  });

  it('gives up within its time bound', async () => {
    expect(await refusal(at('/hang'), { timeoutMs: 300 })).toMatch(/no answer within 300 ms/);
    const slowName = () => new Promise<string[]>(() => {});
    expect(await refusal(at('/good.png'), { timeoutMs: 300, resolve: slowName })).toMatch(
      /no answer within 300 ms/,
    );
  });
});
