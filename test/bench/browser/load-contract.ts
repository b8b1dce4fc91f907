import { withPageParams } from '../../../src/api/client';
import { fetchContractEventsPage, readAheadContractEvents } from '../../../src/api/contract-events';
import type { TokenEvent } from '../../../src/lib/token-event';
import { loadPlain } from '../lib/plain-load';

/**
 * Bundled into a page by the "loading a whole contract" benchmark: every page of one
 * contract through the app's own fetcher (`fetchContractEventsPage`: same-origin fetch,
 * `response.json()`, the normaliser), keeping every event as the page does, with the
 * read-ahead "Load full history" turns on (or without it, for comparison). The same
 * walk with plain `fetch` + `JSON.parse` in the browser separates what the browser's
 * network stack costs from what our code costs, and reading the bytes alone shows what
 * the browser spends before any code of anyone's sees a page.
 */
async function loadContract(address: string, limit: number, maxPages: number, readAhead = true) {
  // The walk at the benchmark's page size, so both sides fetch the same pages.
  const stopWalk = readAhead ? readAheadContractEvents(address) : () => {};
  const start = performance.now();
  const events: TokenEvent[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const page = await fetchContractEventsPage(address, { cursor, limit, readAhead });
    for (const event of page.items) events.push(event);
    cursor = page.cursor;
    pages += 1;
  } while (cursor && pages < maxPages);
  const ms = performance.now() - start;
  stopWalk();
  return { ms, pages, events: events.length };
}

const loadContractOneByOne = (address: string, limit: number, maxPages: number) =>
  loadContract(address, limit, maxPages, false);

const loadPlainHere = (address: string, limit: number, maxPages: number) =>
  loadPlain('', address, limit, maxPages);

/**
 * The floor: the same pages' bytes moved into the page and nothing more (no text, no
 * JSON), page after page, each next cursor taken from the `X-Next-Cursor` header.
 */
async function loadBytes(address: string, limit: number, maxPages: number) {
  const start = performance.now();
  const bodies: ArrayBuffer[] = [];
  let cursor: string | null = null;
  do {
    const response: Response = await fetch(
      withPageParams(`/api/v1/events/${address}`, cursor, limit),
    );
    if (!response.ok) throw new Error(`bytes load: ${response.status}`);
    cursor = response.headers.get('x-next-cursor');
    bodies.push(await response.arrayBuffer());
  } while (cursor && bodies.length < maxPages);
  return { ms: performance.now() - start, pages: bodies.length };
}

Object.assign(globalThis, {
  benchLoadContract: loadContract,
  benchLoadOneByOne: loadContractOneByOne,
  benchLoadPlain: loadPlainHere,
  benchLoadBytes: loadBytes,
});
