import { withPageParams } from '../../../src/api/client';

/**
 * Every page of one contract with plain `fetch` + `JSON.parse` and none of the app's code:
 * the same loop runs in Node and, bundled, in Chromium, so the two are compared like for like.
 * `base` is the proxy's origin in Node and '' (same origin) in the browser.
 */
export async function loadPlain(base: string, address: string, limit: number, maxPages: number) {
  const start = performance.now();
  const events: unknown[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const response = await fetch(
      base + withPageParams(`/api/v1/events/${address}`, cursor, limit),
      { headers: { accept: 'application/json' } },
    );
    if (!response.ok) throw new Error(`plain load: ${response.status}`);
    const body = JSON.parse(await response.text()) as {
      result?: unknown[] | null;
      cursor?: string | null;
    };
    for (const item of body.result ?? []) events.push(item);
    cursor = body.cursor || null;
    pages += 1;
  } while (cursor && pages < maxPages);
  return { ms: performance.now() - start, pages, events: events.length };
}
