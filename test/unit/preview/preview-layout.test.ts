import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type {
  CurrencyRef,
  Overview,
  TokenAnswer,
  WalletCollection,
} from '../../../src/lib/answers';
import { escapeMarkup } from '../../../src/server/preview/escape-markup';
import { fitted, previewSvg } from '../../../src/server/preview/image-svg';
import {
  collectionLayout,
  describeLayout,
  holdersLayout,
  marketLayout,
  tokenLayout,
  walletLayout,
} from '../../../src/server/preview/layout';
import { headTags, withHeadTags } from '../../../src/server/preview/page-head';
import { createPngCache } from '../../../src/server/preview/png-cache';
import { renderPng } from '../../../src/server/preview/render-png';
import { recentLayouts } from '../../../src/server/preview/recent-layouts';
import { pageOrigin, type OriginRule } from '../../../src/server/preview/request-origin';
import { imageTarget, pageTarget } from '../../../src/server/preview/targets';
import { pngSize } from './png-size';

/**
 * The preview's pure parts: the lines a card shows for an answer, the tags a page gets,
 * escaping, the origin a request names, the image's format and size, the cache's bound.
 */
const ADDRESS = `0x${'6058'.padStart(8, '0')}${'ab'.repeat(26)}44b8`;
const WALLET = `0x${'ab'.repeat(32)}`;
const ETH: CurrencyRef = {
  address: '0x049d36570d4e46f48e99674bd3fcc84644ddd6b96f7c741b1562b82f9e004dc7',
  state: 'known',
  symbol: 'ETH',
  decimals: 18,
};
const STRK: CurrencyRef = {
  address: '0x04718f5a0fc34cc1af16a1cdee98ffb20c31f5cd61d6ab07201858f4287c938d',
  state: 'known',
  symbol: 'STRK',
  decimals: 18,
};
const HOSTILE = '</title><script>alert(1)</script> $& $` "quoted" \u0000';

const figures = (overrides: Partial<Overview> = {}): Overview => ({
  events: 1_000_000,
  counts: { mint: 1, transfer: 2, sale: 3, burn: 0, other: 0 },
  sales: 123_456,
  mints: 1,
  knownBurns: 0,
  tokens: 10,
  holders: 4_567,
  volume: [
    { currency: STRK, sales: 5, volume: '123456789000000000000000' },
    { currency: ETH, sales: 3, volume: '1500000000000000000' },
  ],
  marketplaces: [],
  firstActivity: 1,
  lastActivity: 2,
  washSales: 0,
  washVolume: [],
  washExcluded: false,
  assumedSales: 3,
  ...overrides,
});

describe('the lines of a preview', () => {
  it('a collection: name, symbol, events, sales, holders, volume per currency', () => {
    const layout = collectionLayout(
      { address: ADDRESS, name: 'Gallery', symbol: 'GAL' },
      figures(),
    );
    expect(layout.title).toBe('Gallery');
    expect(layout.subtitle).toBe('GAL · Collection 0x6058…44b8');
    expect(describeLayout(layout)).toBe(
      'GAL · Collection 0x6058…44b8 — Events: 1,000,000 · Sales: 123,456 · Holders: 4,567 · Volume: ≈ 123,456.78 STRK · Volume: 1.5 ETH',
    );
  });

  it('a collection without a name is its short address; one not indexed says so', () => {
    const layout = collectionLayout({ address: ADDRESS, name: null, symbol: null }, null);
    expect(layout.title).toBe('Contract 0x6058…44b8');
    expect(layout.figures).toEqual([{ label: 'Events', value: 'not indexed yet' }]);
  });

  it('at most six figures, however many currencies', () => {
    const volume = Array.from({ length: 5 }, () => ({ currency: ETH, sales: 1, volume: '1' }));
    const layout = collectionLayout(
      { address: ADDRESS, name: 'x', symbol: null },
      figures({ volume }),
    );
    expect(layout.figures).toHaveLength(6);
  });

  it('a collection’s holders: how many, the largest and its share, the ten largest’s', () => {
    const facts = { address: ADDRESS, name: 'Gallery', symbol: 'GAL' };
    const answer = {
      totalHolders: 4_567,
      tokensHeld: 8_000,
      knownBurned: 3,
      distribution: [],
      top10Share: 0.25,
      top: { owner: WALLET, tokens: 400, since: 1 },
    };
    const layout = holdersLayout(facts, answer);
    expect(layout.title).toBe('Holders of Gallery');
    expect(describeLayout(layout)).toBe(
      'GAL · Collection 0x6058…44b8 — Holders: 4,567 · Top holder: 0xabab…abab · Top holder’s share: 5% · Top 10 hold: 25% · Tokens held: 8,000',
    );
    // Nobody holds a token (every one burned), or nothing is indexed yet.
    const none = holdersLayout(facts, { ...answer, totalHolders: 0, tokensHeld: 0, top: null });
    expect(describeLayout(none)).toBe('GAL · Collection 0x6058…44b8 — Holders: 0 · Tokens held: 0');
    expect(holdersLayout(facts, null).figures).toEqual([
      { label: 'Holders', value: 'not indexed yet' },
    ]);
  });

  it('a collection’s market: sales and the volume of each currency, never summed across', () => {
    const layout = marketLayout({ address: ADDRESS, name: null, symbol: null }, figures());
    expect(layout.title).toBe('Contract 0x6058…44b8 market');
    expect(describeLayout(layout)).toBe(
      'Collection 0x6058…44b8 — Sales: 123,456 · Volume: ≈ 123,456.78 STRK · Volume: 1.5 ETH',
    );
    const volume = Array.from({ length: 7 }, () => ({ currency: ETH, sales: 1, volume: '1' }));
    expect(
      marketLayout({ address: ADDRESS, name: 'x', symbol: null }, figures({ volume })).figures,
    ).toHaveLength(6);
  });

  it('a token: its id, holder, events and last sale', () => {
    const token: TokenAnswer = {
      owner: WALLET,
      since: 1_717_000_000,
      minted: true,
      burned: false,
      events: [
        event('mint', 1_700_000_000),
        event('sale', 1_710_000_000, '1000000000000000000', STRK.address!),
        event('sale', 1_717_000_000, '2500000000000000000'),
        event('transfer', 1_717_000_000),
      ],
    };
    const layout = tokenLayout({ address: ADDRESS, name: 'Gallery', symbol: 'GAL' }, '42', token);
    expect(layout.title).toBe('Token #42');
    expect(layout.subtitle).toBe('Gallery · GAL');
    expect(describeLayout(layout)).toBe(
      'Gallery · GAL — Holder: 0xabab…abab · Held since: 29 May 2024 · Events: 4 · Last sale (ETH assumed): 2.5 ETH · Sold on: 29 May 2024',
    );
  });

  it('a burned token says so and has no holder; a long id keeps both ends', () => {
    const token: TokenAnswer = { owner: null, since: 5, minted: true, burned: true, events: [] };
    const id = '1'.repeat(40);
    const layout = tokenLayout({ address: ADDRESS, name: null, symbol: null }, id, token);
    expect(layout.title).toBe('Token #111111…111111');
    expect(layout.figures).toEqual([
      { label: 'Holder', value: 'burned' },
      { label: 'Events', value: '0' },
      { label: 'Last sale', value: 'none' },
    ]);
  });

  it('a wallet: collections, holds, bought and sold, amounts per currency never summed across', () => {
    const collection = (
      holds: number,
      bought: WalletCollection['bought'],
      sold: WalletCollection['sold'],
    ): WalletCollection => ({
      address: ADDRESS,
      name: null,
      symbol: null,
      holds,
      events: 1,
      bought,
      sold,
      flaggedSales: 0,
      results: [],
      lastActivity: 1,
    });
    const layout = walletLayout(WALLET, [
      collection(2, [{ currency: STRK, sales: 1, amount: '10000000000000000000' }], []),
      collection(
        3,
        [
          { currency: STRK, sales: 2, amount: '30000000000000000000' },
          { currency: ETH, sales: 1, amount: '500000000000000000' },
        ],
        [{ currency: ETH, sales: 4, amount: '2000000000000000000' }],
      ),
    ]);
    expect(layout.title).toBe('Wallet 0xabab…abab');
    expect(describeLayout(layout)).toBe(
      'Starknet address — Collections: 2 · Tokens held: 5 · Bought: 4 · Sold: 4 · Spent: 40 STRK · Received: 2 ETH',
    );
  });
});

function event(
  kind: 'mint' | 'sale' | 'transfer',
  timestamp: number,
  price?: string,
  currency?: string,
) {
  return {
    id: String(timestamp),
    key: String(timestamp),
    eventId: '1',
    kind,
    label: kind,
    contractAddress: ADDRESS,
    from: WALLET,
    to: WALLET,
    tokenId: '42',
    tokenIdHex: '0x2a',
    timestamp,
    transactionHash: '0x1',
    records: 'transfer' as const,
    ...(price !== undefined && { price }),
    ...(currency !== undefined && { currencyAddress: currency }),
  };
}

describe('the page’s tags', () => {
  const layout = collectionLayout({ address: ADDRESS, name: HOSTILE, symbol: 'X<' }, figures());
  const tags = headTags(layout, 'https://d.example/contracts/0x1', 'https://d.example/i.png');
  const shell =
    '<html><head><meta name="description" content="plain" /><title>Token activity</title></head><body></body></html>';

  it('a hostile name stays text, wherever it goes', () => {
    const page = withHeadTags(shell, tags);
    expect(page).not.toContain('<script>');
    expect(page).not.toContain('</title><script>');
    expect(page.match(/<title>/g)).toHaveLength(1);
    expect(page.match(/name="description"/g)).toHaveLength(1);
    // `$&` and `` $` `` in the name are not replacement patterns: no copy of the shell.
    expect(page.match(/<head>/g)).toHaveLength(1);
    expect(page).toContain(
      '&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt; $&amp; $` &quot;quoted&quot;',
    );
    expect(page).not.toContain('\u0000');
  });

  it('names the card, its absolute image and URL, and a large image', () => {
    expect(tags).toContain('<meta property="og:image" content="https://d.example/i.png" />');
    expect(tags).toContain('<meta property="og:url" content="https://d.example/contracts/0x1" />');
    expect(tags).toContain('<meta name="twitter:card" content="summary_large_image" />');
    expect(tags).toContain('<meta property="og:image:width" content="1200" />');
  });

  it('escapes every markup character', () => {
    expect(escapeMarkup(`<a href="x" title='y'>&</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;',
    );
  });
});

describe('the image', () => {
  it('is a PNG of 1200×630, whatever the name', () => {
    const layout = collectionLayout({ address: ADDRESS, name: HOSTILE, symbol: null }, figures());
    expect(previewSvg(layout)).not.toContain('<script>');
    expect(pngSize(renderPng(layout))).toEqual({ width: 1200, height: 630 });
  });

  it('fits text to its width: smaller first, then cut with an ellipsis', () => {
    expect(fitted('short', 800, 64, 40, 0.6)).toEqual({ text: 'short', size: 64 });
    const long = fitted('a'.repeat(200), 800, 64, 40, 0.6);
    expect(long.size).toBe(40);
    expect(long.text.endsWith('…')).toBe(true);
    expect(long.text.length).toBeLessThan(40);
  });
});

describe('which pages and images have a preview', () => {
  it('reads collections (their events, holders and market), tokens and wallets, canonical; nothing else', () => {
    expect(pageTarget(`/contracts/0x6058${'AB'.repeat(26)}44B8`)).toEqual({
      kind: 'collection',
      address: ADDRESS,
    });
    expect(pageTarget('/contracts/0x1/tokens/0x10')).toEqual({
      kind: 'token',
      address: `0x${'0'.repeat(63)}1`,
      tokenId: '16',
    });
    expect(pageTarget('/addresses/0x2')).toEqual({
      kind: 'wallet',
      address: `0x${'0'.repeat(63)}2`,
    });
    for (const kind of ['holders', 'market'] as const) {
      const address = `0x${'0'.repeat(63)}1`;
      expect(pageTarget(`/contracts/0x01/${kind}`)).toEqual({ kind, address });
      expect(imageTarget(`/collections/0x01/${kind}.png`)).toEqual({ kind, address });
    }
    for (const path of [
      '/contracts',
      '/contracts/0xZZ',
      '/contracts/0xZZ/holders',
      '/contracts/0x1/holders/export',
      '/contracts/0x1/trades',
      '/contracts/0x1/tokens/-1',
      '/addresses/x',
    ]) {
      expect(pageTarget(path)).toBeNull();
    }
    expect(imageTarget('/wallets/0x2.png')).toEqual({
      kind: 'wallet',
      address: `0x${'0'.repeat(63)}2`,
    });
    expect(imageTarget('/wallets/0x2')).toBeNull();
  });
});

describe('the origin a page’s links name', () => {
  const LISTEN = { host: '127.0.0.1', port: 4173 };
  const origin = async (
    headers: Record<string, string>,
    rule: OriginRule = { listen: LISTEN },
    socket?: { localAddress: string; localPort: number },
  ) => {
    const app = new Hono();
    app.get('*', (c) => c.json(pageOrigin(c, rule)));
    const env = socket && { incoming: { socket } };
    return (await app.request('http://in.example/x', { headers }, env)).json();
  };
  const fromHost = (origin: string) => ({ origin, fromHost: true });

  it('is PUBLIC_URL when set, whatever the request says', async () => {
    const rule = { publicUrl: 'https://dash.example', listen: LISTEN };
    for (const headers of [
      { host: 'evil.example' } as Record<string, string>,
      { host: 'localhost:4173', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'http' },
    ]) {
      expect(await origin(headers, rule)).toEqual({
        origin: 'https://dash.example',
        fromHost: false,
      });
    }
  });

  it('without it, the Host only when it names this machine on the port it listens on', async () => {
    expect(await origin({ host: 'localhost:4173' })).toEqual(fromHost('http://localhost:4173'));
    expect(await origin({ host: '127.0.0.1:4173' })).toEqual(fromHost('http://127.0.0.1:4173'));
    expect(await origin({ host: '[::1]:4173' })).toEqual(fromHost('http://[::1]:4173'));
    // Anything else: where the server listens.
    for (const host of ['evil.example', 'evil.example:4173', 'localhost:8080', 'a"><script>']) {
      expect(await origin({ host }), host).toEqual(fromHost('http://127.0.0.1:4173'));
    }
    // Forwarded headers are not read, whoever sent them.
    const forwarded = { host: 'localhost:4173', 'x-forwarded-host': 'evil.example' };
    expect(await origin(forwarded)).toEqual(fromHost('http://localhost:4173'));
  });

  it('with a socket, the address and port the connection arrived at', async () => {
    const socket = { localAddress: '::ffff:192.168.1.20', localPort: 8080 };
    const listen = { host: '0.0.0.0', port: 8080 };
    expect(await origin({ host: '192.168.1.20:8080' }, { listen }, socket)).toEqual(
      fromHost('http://192.168.1.20:8080'),
    );
    expect(await origin({ host: 'evil.example:8080' }, { listen }, socket)).toEqual(
      fromHost('http://192.168.1.20:8080'),
    );
  });
});

describe('the image cache', () => {
  it('keeps the most recently used within its bytes', () => {
    const cache = createPngCache(25);
    const png = (size: number) => ({ png: new Uint8Array(size), etag: '"x"' });
    cache.set('a', png(10));
    cache.set('b', png(10));
    expect(cache.get('a')).toBeDefined();
    cache.set('c', png(10));
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBeDefined();
    expect(cache.stats()).toMatchObject({ entries: 2, bytes: 20, hits: 2, misses: 1 });
    cache.set('huge', png(26));
    expect(cache.get('huge')).toBeUndefined();
  });

  it('tags the same key alike', () => {
    const cache = createPngCache(1);
    expect(cache.etagOf('k')).toBe(cache.etagOf('k'));
    expect(cache.etagOf('k')).not.toBe(cache.etagOf('l'));
  });
});

describe('recent layouts', () => {
  it('reads a target once within the time, again after it; keeps the newest few', async () => {
    let time = 0;
    let reads = 0;
    const recent = recentLayouts(1_000, 2, () => time);
    const load = async () => {
      reads++;
      return walletLayout(WALLET, []);
    };
    await recent('a', load);
    await recent('a', load);
    expect(reads).toBe(1);
    time = 1_000;
    await recent('a', load);
    expect(reads).toBe(2);
    await recent('b', load);
    await recent('c', load);
    await recent('a', load);
    expect(reads).toBe(5);
  });
});
