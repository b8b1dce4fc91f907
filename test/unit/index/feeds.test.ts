import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { canonicalAddress } from '../../../src/lib/address';
import { generateDataset } from '../../../src/server/sample-service';
import { useIndexedSample } from '../../support/indexed-sample';
import { changesOfHands, rawRecords, type RawChange } from '../../support/raw-records';

/**
 * Atom feeds of views (`/api/feed/<page path>?<page search>`): a document an XML parser
 * reads with every element Atom requires, entries that are the view's newest changes of
 * hands as the service's own records give them, and ids that stay the same.
 */
const dataset = generateDataset({ seed: 7, contracts: 5, events: 5_000 });
const [busiest] = [...dataset.contracts].sort((a, b) => b.eventCount - a.eventCount);
const setUp = useIndexedSample(dataset);
const ATOM = 'http://www.w3.org/2005/Atom';
// A standard XML parser (jsdom's, which ships no types of its own).
const { JSDOM } = createRequire(import.meta.url)('jsdom') as {
  JSDOM: new () => { window: { DOMParser: typeof globalThis.DOMParser } };
};
const XmlParser = new JSDOM().window.DOMParser;

async function indexed() {
  const sample = await setUp('deployed');
  await sample.proxy.indexer!.listed();
  await sample.proxy.indexer!.whole(busiest!.address).done;
  const changes = changesOfHands(await rawRecords(sample.service, busiest!.address));
  const feed = async (path: string) => {
    const response = await sample.proxy.app.request(`/api/feed${path}`);
    return { response, text: await response.text() };
  };
  return { ...sample, changes, feed };
}

/** The document parsed, its required elements read; fails on anything Atom requires missing. */
function readAtom(text: string) {
  const doc = new XmlParser().parseFromString(text, 'application/xml');
  expect(doc.getElementsByTagName('parsererror')).toHaveLength(0);
  const feed = doc.documentElement;
  expect(feed.localName).toBe('feed');
  expect(feed.namespaceURI).toBe(ATOM);
  const child = (element: Element, name: string) =>
    [...element.children].filter((c) => c.localName === name && c.namespaceURI === ATOM);
  const one = (element: Element, name: string) => {
    const found = child(element, name);
    expect(found, `one <${name}>`).toHaveLength(1);
    return found[0]!;
  };
  const time = (element: Element) => {
    const value = one(element, 'updated').textContent!;
    expect(value).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    return Date.parse(value) / 1000;
  };
  one(feed, 'id');
  one(feed, 'title');
  time(feed);
  expect(child(feed, 'author').length).toBeGreaterThan(0);
  const self = child(feed, 'link').find((link) => link.getAttribute('rel') === 'self');
  expect(self?.getAttribute('href')).toMatch(/^http:\/\/.+\/api\/feed\//);
  const entries = child(feed, 'entry').map((entry) => ({
    id: one(entry, 'id').textContent!,
    title: one(entry, 'title').textContent!,
    updated: time(entry),
    link: one(entry, 'link').getAttribute('href')!,
    summary: one(entry, 'summary').textContent!,
  }));
  return { title: one(feed, 'title').textContent!, updated: time(feed), entries };
}

/** The newest `n` changes' times, newest first, as the records give them. */
const newestTimes = (changes: RawChange[], n: number) =>
  changes
    .map((change) => change.ts)
    .sort((a, b) => b - a)
    .slice(0, n);

describe('feeds', () => {
  it("a collection's sales: valid Atom, the newest sales of the records, stable ids", async () => {
    const { feed, changes } = await indexed();
    const { response, text } = await feed(`/contracts/${busiest!.address}?kind=sale&sort=-price`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/atom\+xml/);
    const atom = readAtom(text);
    const zero = (address: string) => /^0x0*$/.test(address);
    const sales = changes.filter(
      (change) => change.sale !== undefined && !zero(change.from) && !zero(change.to),
    );
    expect(sales.length).toBeGreaterThan(50);
    // Newest first whatever the view's sort: a feed is news.
    expect(atom.entries.map((entry) => entry.updated)).toEqual(newestTimes(sales, 50));
    expect(atom.updated).toBe(atom.entries[0]!.updated);
    const saleAt = new Map(sales.map((sale) => [`${sale.token}|${sale.ts}`, sale]));
    for (const entry of atom.entries) {
      const token = /#(\d+)/.exec(entry.title)![1]!;
      expect(saleAt.has(`${token}|${entry.updated}`), entry.title).toBe(true);
      expect(entry.title).toMatch(/^Sale · #\d+ · /);
      expect(entry.link).toMatch(new RegExp(`/contracts/${busiest!.address}/tokens/${token}$`));
      expect(entry.id).toMatch(
        /^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      );
    }
    expect(new Set(atom.entries.map((entry) => entry.id)).size).toBe(atom.entries.length);
    // Asked again, and from the unfiltered view that holds them too: the same ids.
    const again = readAtom((await feed(`/contracts/${busiest!.address}?kind=sale`)).text);
    expect(again.entries.map((entry) => entry.id)).toEqual(atom.entries.map((entry) => entry.id));
    const all = readAtom((await feed(`/contracts/${busiest!.address}`)).text);
    expect(all.entries.map((entry) => entry.updated)).toEqual(newestTimes(changes, 50));
    const allIds = new Set(all.entries.map((entry) => entry.id));
    const newestSale = atom.entries[0]!;
    if (newestSale.updated > all.entries.at(-1)!.updated)
      expect(allIds.has(newestSale.id)).toBe(true);
  });

  it("a token's and a wallet's feeds hold their own changes, newest first", async () => {
    const { feed, changes } = await indexed();
    const byToken = new Map<string, RawChange[]>();
    for (const change of changes)
      byToken.set(change.token, [...(byToken.get(change.token) ?? []), change]);
    const [token, ofToken] = [...byToken].sort((a, b) => b[1].length - a[1].length)[0]!;
    const tokenFeed = readAtom((await feed(`/contracts/${busiest!.address}/tokens/${token}`)).text);
    expect(tokenFeed.entries.map((entry) => entry.updated)).toEqual(newestTimes(ofToken, 50));

    const wallet = canonicalAddress(ofToken[0]!.to)!;
    const ofWallet = changes.filter(
      (change) =>
        canonicalAddress(change.from) === wallet || canonicalAddress(change.to) === wallet,
    );
    const walletFeed = readAtom((await feed(`/addresses/${wallet}`)).text);
    expect(walletFeed.entries.map((entry) => entry.updated)).toEqual(newestTimes(ofWallet, 50));
    // Across collections, each entry names its collection.
    for (const entry of walletFeed.entries) expect(entry.summary).toContain(busiest!.address);
  });

  it('a hostile name stays text, and a page without a feed says which pages have one', async () => {
    const { feed, pool } = await indexed();
    await pool.query('UPDATE idx_contracts SET name = $1 WHERE address = $2', [
      'A & B <script>x</script>\u0001',
      busiest!.address,
    ]);
    const atom = readAtom((await feed(`/contracts/${busiest!.address}/holders`)).text);
    expect(atom.title).toBe('A & B <script>x</script>: every change of hands');

    const none = await feed('/transactions/0x1');
    expect(none.response.status).toBe(404);
    expect(JSON.parse(none.text).error.message).toMatch(/a collection .* a token .* a wallet/);
    const unlisted = await feed(`/contracts/0x1`);
    expect(unlisted.response.status).toBe(404);
  });
});
