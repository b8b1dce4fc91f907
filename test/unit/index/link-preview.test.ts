import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalAddress, isZeroAddress, shortenHex } from '../../../src/lib/address';
import { formatCurrencyAmount } from '../../../src/lib/currency-amount';
import { formatCount, formatShare } from '../../../src/lib/format';
import { CURRENCIES, formatPrice, parseBaseUnits, readPrice } from '../../../src/lib/price';
import { formatDay } from '../../../src/lib/time';
import { createServerApp } from '../../../src/server/http/server-app';
import { generateDataset } from '../../../src/server/sample-service';
import { useIndexedSample } from '../../support/indexed-sample';
import {
  countedCurrency,
  holdersFrom,
  latestTransfers,
  rawRecords,
  type RawRecord,
} from '../../support/raw-records';
import { pngSize } from '../preview/png-size';

/**
 * Link previews as a chat's crawler sees them: the HTML of a collection's (its events, its
 * holders, its market), a token's and a wallet's page carries Open Graph tags whose figures equal those worked out here from
 * the service's own records, with absolute URLs and a hostile name kept as text; the
 * image they name is a 1200×630 PNG, rendered once and then served from the cache.
 */
const HOSTILE = '</title><script>alert(1)</script> $& Gallery';
const dataset = generateDataset({ seed: 7, contracts: 3, events: 4_000 });
const busiest = [...dataset.contracts].sort((a, b) => b.eventCount - a.eventCount)[0]!;
busiest.name = HOSTILE;
const ORIGIN = 'http://dash.example:8080';
// The app's own shell (the build changes only its script and style links).
const SHELL = readFileSync('index.html', 'utf8');

let clientDir: string;
beforeAll(() => {
  clientDir = mkdtempSync(join(tmpdir(), 'client-'));
  writeFileSync(join(clientDir, 'index.html'), SHELL);
});
afterAll(() => rmSync(clientDir, { recursive: true, force: true }));

// Figures read anew on every request: a changed name must show at once here.
const setUpSample = useIndexedSample(dataset, { preview: { layoutTtlMs: 0 } });

async function setUp() {
  const { proxy, engine, service } = await setUpSample();
  await proxy.indexer!.listed();
  for (const contract of dataset.contracts) await proxy.indexer!.whole(contract.address).done;
  const app = createServerApp({ proxy, clientDir, trustedProxyHops: 1, publicUrl: ORIGIN });
  const get = (path: string, headers: Record<string, string> = {}) =>
    app.request(`http://internal${path}`, { headers: { host: 'dash.example:8080', ...headers } });
  // Without PUBLIC_URL, listening on 127.0.0.1:4173.
  const local = createServerApp({ proxy, clientDir, trustedProxyHops: 1 });
  const getLocal = (path: string, headers: Record<string, string>) =>
    local.request(`http://internal${path}`, { headers });
  const page = async (path: string, headers?: Record<string, string>) =>
    (await get(path, headers)).text();
  return { service, get, getLocal, page, proxy, pool: engine.pool };
}

/** The unescaped `content` of each meta tag, and the page's title. */
function tagsOf(html: string) {
  const unescape = (text: string) =>
    text
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&amp;/g, '&');
  const tags = new Map<string, string>();
  for (const [, name, content] of html.matchAll(
    /<meta (?:name|property)="([^"]+)" content="([^"]*)" \/>/g,
  )) {
    tags.set(name!, unescape(content!));
  }
  const titles = [...html.matchAll(/<title>([^<]*)<\/title>/g)].map(([, t]) => unescape(t!));
  return { tags, titles };
}

const changesOf = (records: RawRecord[]) => records.filter((r) => r.event_type !== 'sale');

describe('link previews', () => {
  it('a collection’s, a token’s and a wallet’s page carry their figures; the image is served once rendered', async () => {
    const { service, get, page } = await setUp();
    const records = await rawRecords(service, busiest.address);
    const sales = records.filter((r) => r.event_type === 'sale');

    // The collection: name as text, figures equal to the records'.
    const collectionHtml = await page(`/contracts/${busiest.address}`);
    expect(collectionHtml).not.toContain('<script>');
    // One title and one description, in place of the shell's; the rest of it as built.
    expect(collectionHtml.match(/name="description"/g)).toHaveLength(1);
    expect(collectionHtml).toContain('<div id="root">');
    const collection = tagsOf(collectionHtml);
    expect(collection.titles).toEqual([`${HOSTILE} · Token activity`]);
    expect(collection.tags.get('og:title')).toBe(HOSTILE);
    expect(collection.tags.get('description')).toBe(collection.tags.get('og:description'));
    const description = collection.tags.get('og:description')!;
    expect(description).toContain(`Events: ${formatCount(changesOf(records).length)}`);
    expect(description).toContain(`Sales: ${formatCount(sales.length)}`);
    expect(description).toContain(`Holders: ${formatCount(holdersFrom(records, Infinity).length)}`);
    expect(collection.tags.get('og:url')).toBe(`${ORIGIN}/contracts/${busiest.address}`);
    expect(collection.tags.get('og:image')).toBe(
      `${ORIGIN}/api/preview/collections/${busiest.address}.png`,
    );
    expect(collection.tags.get('twitter:card')).toBe('summary_large_image');

    // A sold token: its holder, its events and its last sale.
    const lastSale = sales.reduce((a, b) => (Number(b.timestamp) > Number(a.timestamp) ? b : a));
    const tokenId = lastSale.token_id!;
    const ofToken = records.filter((r) => r.token_id === tokenId);
    const ownLastSale = ofToken
      .filter((r) => r.event_type === 'sale')
      .reduce((a, b) => (Number(b.timestamp) >= Number(a.timestamp) ? b : a));
    const holderRecord = latestTransfers(records, Infinity).get(tokenId)!;
    const holder = isZeroAddress(holderRecord.to_address!)
      ? 'burned'
      : shortenHex(canonicalAddress(holderRecord.to_address!)!);
    const price = readPrice({
      price: ownLastSale.price!,
      ...(ownLastSale.currency_address && { currencyAddress: ownLastSale.currency_address }),
    })!;
    const token = tagsOf(await page(`/contracts/${busiest.address}/tokens/${tokenId}`));
    expect(token.tags.get('og:title')).toBe(`Token #${tokenId}`);
    const tokenText = token.tags.get('og:description')!;
    expect(tokenText).toContain(`Holder: ${holder}`);
    expect(tokenText).toContain(`Events: ${formatCount(changesOf(ofToken).length)}`);
    // A sale that names no currency is in ETH, assumed: the label says so.
    expect(tokenText).toContain(
      ownLastSale.currency_address
        ? `Last sale: ${formatPrice(price)}`
        : `Last sale (ETH assumed): ${formatPrice({ ...price, assumed: false } as typeof price)}`,
    );
    expect(tokenText).toContain(`Sold on: ${formatDay(Number(ownLastSale.timestamp))}`);
    expect(token.tags.get('og:image')).toBe(
      `${ORIGIN}/api/preview/collections/${busiest.address}/tokens/${tokenId}.png`,
    );

    // The wallet holding the most of the busiest collection, across every collection.
    const wallet = holdersFrom(records, Infinity)[0]!.owner;
    const everywhere = await Promise.all(
      dataset.contracts.map((c) => rawRecords(service, c.address)),
    );
    const involved = (r: RawRecord) =>
      canonicalAddress(r.from_address!) === wallet || canonicalAddress(r.to_address!) === wallet;
    const collections = everywhere.filter((list) => changesOf(list).some(involved)).length;
    const held = everywhere.reduce(
      (sum, list) =>
        sum + (holdersFrom(list, Infinity).find((h) => h.owner === wallet)?.tokens ?? 0),
      0,
    );
    const walletPage = tagsOf(await page(`/addresses/${wallet}`));
    expect(walletPage.tags.get('og:title')).toBe(`Wallet ${shortenHex(wallet)}`);
    expect(walletPage.tags.get('og:description')).toContain(
      `Collections: ${formatCount(collections)} · Tokens held: ${formatCount(held)}`,
    );

    // The images: PNGs of 1200×630, cached, with a validator.
    for (const url of [collection, token, walletPage].map((p) => p.tags.get('og:image')!)) {
      const first = await get(new URL(url).pathname);
      expect(first.status).toBe(200);
      expect(first.headers.get('content-type')).toBe('image/png');
      expect(first.headers.get('cache-control')).toBe('public, max-age=300');
      expect(pngSize(new Uint8Array(await first.arrayBuffer()))).toEqual({
        width: 1200,
        height: 630,
      });
      const etag = first.headers.get('etag')!;
      const again = await get(new URL(url).pathname, { 'if-none-match': etag });
      expect(again.status).toBe(304);
    }
  }, 120_000);

  it('a collection’s holders and market pages carry their own title, figures and card', async () => {
    const { service, get, page } = await setUp();
    const records = await rawRecords(service, busiest.address);

    // Holders: how many, the largest's share of the tokens held, the ten largest's.
    const holders = tagsOf(await page(`/contracts/${busiest.address}/holders`));
    const want = holdersFrom(records, Infinity);
    const held = want.reduce((sum, h) => sum + h.tokens, 0);
    const top10 = want.slice(0, 10).reduce((sum, h) => sum + h.tokens, 0);
    expect(holders.titles).toEqual([`Holders of ${HOSTILE} · Token activity`]);
    expect(holders.tags.get('og:title')).toBe(`Holders of ${HOSTILE}`);
    expect(holders.tags.get('og:description')).toContain(
      [
        `Holders: ${formatCount(want.length)}`,
        `Top holder: ${shortenHex(want[0]!.owner)}`,
        `Top holder’s share: ${formatShare(want[0]!.tokens / held)}`,
        `Top 10 hold: ${formatShare(top10 / held)}`,
        `Tokens held: ${formatCount(held)}`,
      ].join(' · '),
    );
    expect(holders.tags.get('og:url')).toBe(`${ORIGIN}/contracts/${busiest.address}/holders`);

    // Market: the sales and their volume in each currency, never added across currencies.
    const market = tagsOf(await page(`/contracts/${busiest.address}/market`));
    expect(market.titles).toEqual([`${HOSTILE} market · Token activity`]);
    expect(market.tags.get('twitter:title')).toBe(`${HOSTILE} market`);
    const sales = records.filter((r) => r.event_type === 'sale');
    const volumes = new Map<string, { sales: number; units: bigint }>();
    for (const sale of sales) {
      const currency = canonicalAddress(countedCurrency(sale.currency_address))!;
      const entry = volumes.get(currency) ?? { sales: 0, units: 0n };
      entry.sales += 1;
      entry.units += parseBaseUnits(sale.price!) ?? 0n;
      volumes.set(currency, entry);
    }
    const volumeLine = (address: string, units: bigint) => {
      const known = CURRENCIES.find((c) => c.address === address);
      const ref = known
        ? { address, state: 'known' as const, symbol: known.symbol, decimals: known.decimals }
        : { address, state: 'unknown' as const };
      return `Volume: ${formatCurrencyAmount(String(units), ref, 2)}`;
    };
    const lines = [...volumes]
      .sort(([, a], [, b]) => b.sales - a.sales)
      .map(([address, { units }]) => volumeLine(address, units));
    const [title, figures] = market.tags.get('og:description')!.split(' — ');
    expect(title).toBe(`${busiest.symbol} · Collection ${shortenHex(busiest.address)}`);
    const [salesLine, ...shown] = figures!.split(' · ');
    expect(salesLine).toBe(`Sales: ${formatCount(sales.length)}`);
    // As many currencies as the card has room for, the most sold first, each its own sum.
    expect(lines.length).toBeGreaterThan(1);
    expect(shown).toHaveLength(Math.min(lines.length, 5));
    expect(shown[0]).toBe(lines[0]);
    for (const line of shown) expect(lines).toContain(line);
    expect(market.tags.get('og:url')).toBe(`${ORIGIN}/contracts/${busiest.address}/market`);

    // Each names its own card: a PNG of 1200×630, not the collection's.
    const images = [holders, market].map((p) => p.tags.get('og:image')!);
    expect(images).toEqual([
      `${ORIGIN}/api/preview/collections/${busiest.address}/holders.png`,
      `${ORIGIN}/api/preview/collections/${busiest.address}/market.png`,
    ]);
    const etags = new Set<string | null>();
    for (const url of images) {
      const image = await get(new URL(url).pathname);
      expect(image.status).toBe(200);
      expect(image.headers.get('content-type')).toBe('image/png');
      expect(pngSize(new Uint8Array(await image.arrayBuffer()))).toEqual({
        width: 1200,
        height: 630,
      });
      etags.add(image.headers.get('etag'));
    }
    etags.add((await get(`/api/preview/collections/${busiest.address}.png`)).headers.get('etag'));
    expect(etags.size).toBe(3);
  }, 120_000);

  it('renders an image once: the second request is a cache hit, a new figure a new picture', async () => {
    const { get, proxy, pool } = await setUp();
    const path = `/api/preview/collections/${busiest.address}.png`;
    const first = await get(path);
    expect(proxy.stats().previews).toMatchObject({ entries: 1, hits: 0, misses: 1 });
    const second = await get(path);
    expect(proxy.stats().previews).toMatchObject({ entries: 1, hits: 1, misses: 1 });
    expect(await second.arrayBuffer()).toEqual(await first.arrayBuffer());
    expect(second.headers.get('etag')).toBe(first.headers.get('etag'));
    // What the picture shows changes (here its name): a new picture, under a new tag.
    await pool.query('UPDATE idx_contracts SET name = $1 WHERE address = $2', [
      'Renamed',
      busiest.address,
    ]);
    const third = await get(path);
    expect(third.headers.get('etag')).not.toBe(first.headers.get('etag'));
    expect(proxy.stats().previews).toMatchObject({ entries: 2, hits: 1, misses: 2 });
  }, 60_000);

  it('gives the plain shell to any other page and to an address or id that is not one', async () => {
    const { get, page } = await setUp();
    for (const path of [
      '/contracts',
      `/contracts/${busiest.address}/holders/export`,
      `/contracts/${busiest.address}/marketplaces`,
      '/contracts/0xnothex',
      `/contracts/${busiest.address}/tokens/-1`,
      '/addresses/0x1234567890123456789012345678901234567890123456789012345678901234567',
    ]) {
      const html = await page(path);
      expect(html, path).toBe(SHELL);
    }
    // A page with a feed names it, with its view's search; any other names none.
    const sales = await page(`/contracts/${busiest.address}?kind=sale`);
    expect(sales).toContain(
      `<link rel="alternate" type="application/atom+xml" title="Atom feed of this view" href="/api/feed/contracts/${busiest.address}?kind=sale" />`,
    );
    const bad = await get('/api/preview/collections/0xnothex.png');
    expect(bad.status).toBe(400);
  }, 60_000);

  it('names PUBLIC_URL, whatever Host or forwarded headers a request comes with', async () => {
    const { get } = await setUp();
    const path = `/addresses/${busiest.address}`;
    for (const headers of [
      { host: 'evil.example' } as Record<string, string>,
      { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'evil.example' },
      { host: 'x"><b>' },
    ]) {
      const response = await get(path, headers);
      const { tags } = tagsOf(await response.text());
      expect(tags.get('og:url')).toBe(`${ORIGIN}${path}`);
      expect(tags.get('og:image')).toBe(`${ORIGIN}/api/preview/wallets/${busiest.address}.png`);
      expect(response.headers.get('vary') ?? '').not.toMatch(/host/i);
    }
  }, 60_000);

  it('without PUBLIC_URL, believes only a Host that names this machine, and says it varies', async () => {
    const { getLocal } = await setUp();
    const path = `/contracts/${busiest.address}`;
    const urlOf = async (headers: Record<string, string>) => {
      const response = await getLocal(path, headers);
      expect(response.headers.get('vary')).toMatch(/\bHost\b/);
      return tagsOf(await response.text()).tags.get('og:url');
    };
    expect(await urlOf({ host: 'localhost:4173' })).toBe(`http://localhost:4173${path}`);
    // Forwarded headers are not read for links, trusted proxy or not.
    const forwarded = { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' };
    expect(await urlOf({ host: 'localhost:4173', ...forwarded })).toBe(
      `http://localhost:4173${path}`,
    );
    for (const headers of [{ host: 'evil.example' }, { host: 'x"><b>' }]) {
      expect(await urlOf(headers)).toBe(`http://127.0.0.1:4173${path}`);
    }
  }, 60_000);
});
