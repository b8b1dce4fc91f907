import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../src/api/api-error';
import { contractEventsQueryOptions } from '../../../src/api/contract-events';
import { WALK_PAGE_LIMIT, type PageParam } from '../../../src/api/page-param';
import { queryKeys } from '../../../src/api/query-keys';
import { getListPage, READ_AHEAD_PAGES, startReadAhead } from '../../../src/api/read-ahead';
import { MAX_LIMIT } from '../../../src/server/proxy/route-match';

const LIST = '/api/v1/events/0xabc';

/** A page of a walk to the end, as its page param says (see page-param.ts). */
const walked = (cursor: string | null, limit: number | undefined): PageParam => ({
  cursor,
  limit,
  readAhead: true,
});

/** A list of `pages` pages behind a fake fetch that records every request it sees. */
function fakeList(pages: number, failOnce?: string) {
  const requested: string[] = [];
  const aborted: string[] = [];
  const cursorOf = (index: number) => (index < pages - 1 ? `c${index + 1}` : null);
  const fetchMock = vi.fn(async (path: string, init?: RequestInit) => {
    requested.push(path);
    init?.signal?.addEventListener('abort', () => aborted.push(path));
    const cursor = new URLSearchParams(path.split('?')[1] ?? '').get('cursor');
    if (cursor === failOnce) {
      failOnce = undefined;
      return Response.json({ message: 'Internal server error' }, { status: 502 });
    }
    const index = cursor ? Number(cursor.slice(1)) : 0;
    const next = cursorOf(index);
    return Response.json(
      { result: [index], cursor: next },
      { headers: next ? { 'x-next-cursor': next } : {} },
    );
  });
  vi.stubGlobal('fetch', fetchMock);
  return { requested, aborted };
}

async function walkAll() {
  const seen: unknown[] = [];
  let cursor: string | null = null;
  do {
    const body = (await getListPage(LIST, walked(cursor, WALK_PAGE_LIMIT))).body as {
      result: number[];
      cursor: string;
    };
    seen.push(...body.result);
    cursor = body.cursor;
  } while (cursor);
  return seen;
}

beforeEach(() => vi.unstubAllGlobals());
afterEach(() => vi.unstubAllGlobals());

describe('read-ahead while a list is walked', () => {
  it('asks for the largest pages, and for the next ones as soon as headers name them', async () => {
    const { requested } = fakeList(8);
    const stop = startReadAhead(LIST);
    await getListPage(LIST, walked(null, WALK_PAGE_LIMIT));
    await vi.waitFor(() => expect(requested).toHaveLength(1 + READ_AHEAD_PAGES));
    // The first page is read; the next three were asked for before anyone wanted them,
    // and no more than that.
    expect(requested).toEqual([
      `${LIST}?limit=5000`,
      `${LIST}?cursor=c1&limit=5000`,
      `${LIST}?cursor=c2&limit=5000`,
      `${LIST}?cursor=c3&limit=5000`,
    ]);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(requested).toHaveLength(1 + READ_AHEAD_PAGES);
    // Taking one makes room for one more.
    await getListPage(LIST, walked('c1', WALK_PAGE_LIMIT));
    await vi.waitFor(() => expect(requested.at(-1)).toBe(`${LIST}?cursor=c4&limit=5000`));
    stop();
    expect(WALK_PAGE_LIMIT).toBe(MAX_LIMIT);
  });

  it('gives every page exactly once, in order, with one request each', async () => {
    const { requested } = fakeList(5);
    const stop = startReadAhead(LIST);
    expect(await walkAll()).toEqual([0, 1, 2, 3, 4]);
    stop();
    expect(requested).toHaveLength(5);
    expect(new Set(requested).size).toBe(5);
  });

  it('asks for nothing early when no walk is on', async () => {
    const { requested } = fakeList(3);
    await getListPage(LIST, walked(null, undefined));
    expect(requested).toEqual([LIST]);
  });

  it('drops and cancels the early pages when the walk stops', async () => {
    const { requested, aborted } = fakeList(3);
    const stop = startReadAhead(LIST);
    await getListPage(LIST, walked(null, 100));
    await vi.waitFor(() => expect(requested).toHaveLength(3));
    stop();
    expect(aborted).toEqual([`${LIST}?cursor=c1&limit=100`, `${LIST}?cursor=c2&limit=100`]);
    // Asked for again after the walk: a fresh request, not the cancelled one.
    await getListPage(LIST, walked('c1', 100));
    expect(requested.filter((path) => path === `${LIST}?cursor=c1&limit=100`)).toHaveLength(2);
  });

  it('hands an early failure to the page that wanted it, and a retry asks afresh', async () => {
    const { requested } = fakeList(3, 'c1');
    const stop = startReadAhead(LIST);
    await getListPage(LIST, walked(null, 100));
    await expect(getListPage(LIST, walked('c1', 100))).rejects.toBeInstanceOf(ApiError);
    const retried = (await getListPage(LIST, walked('c1', 100))).body as { result: number[] };
    expect(retried.result).toEqual([1]);
    stop();
    expect(requested.filter((path) => path === `${LIST}?cursor=c1&limit=100`)).toHaveLength(2);
  });

  it('rejects with the abort when the caller gives up on an early page', async () => {
    fakeList(3);
    const stop = startReadAhead(LIST);
    await getListPage(LIST, walked(null, undefined));
    const controller = new AbortController();
    const pending = getListPage(LIST, walked('c1', undefined), controller.signal);
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    stop();
  });

  it('reads nothing ahead for a page that is not walked, even while its list is', async () => {
    // The "new events" poll asks for the head of a list "Load full history" is walking.
    const { requested } = fakeList(3);
    const stop = startReadAhead(LIST);
    await getListPage(LIST, { cursor: null, limit: 100 });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(requested).toEqual([`${LIST}?limit=100`]);
    stop();
  });
});

describe('what a list query asks for', () => {
  const address = '0xabc';
  const page = { items: [], skipped: 0, cursor: 'c1' };

  it('names its first page in its key; browsing asks the same size, a walk the largest', () => {
    const browsing = contractEventsQueryOptions(address, 250);
    const walking = contractEventsQueryOptions(address, 250, true);
    // The same list either way: walking it on does not start it again.
    expect(walking.queryKey).toEqual(browsing.queryKey);
    expect(browsing.queryKey).toEqual(queryKeys.contractEvents(address, 250));
    expect(browsing.initialPageParam).toEqual({ cursor: null, limit: 250 });
    expect(walking.initialPageParam).toEqual({ cursor: null, limit: 250 });
    const next = (options: typeof browsing) =>
      options.getNextPageParam(page, [page], null!, [null!]);
    expect(next(browsing)).toEqual({ cursor: 'c1', limit: 250 });
    expect(next(walking)).toEqual({ cursor: 'c1', limit: WALK_PAGE_LIMIT, readAhead: true });
    expect(next(walking)?.limit).toBe(MAX_LIMIT);
    expect(browsing.getNextPageParam({ ...page, cursor: null }, [page], null!, [null!])).toBe(
      undefined,
    );
  });
});
