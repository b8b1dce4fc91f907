import { fetchContractEventsPage } from '../../src/api/contract-events';
import { readPage } from '../../src/api/read-page';
import { normaliseEvent, parsePage } from '../../src/lib/normalise';
import type { TokenEvent } from '../../src/lib/token-event';
import { sortEvents } from '../../src/lib/event-list';
import { STARKVERSE_GALLERY_ADDRESS } from '../../src/server/sample-service';
import type { BenchContext } from './context';
import { withPageParams } from '../../src/api/client';
import { getText } from './lib/in-process';
import { count, kb, median, ms } from './lib/stats';

/** `median (min …)`: on a busy machine the minimum shows what the code costs undisturbed. */
const medianMin = (times: number[]) => `${ms(median(times))} (min ${ms(Math.min(...times))})`;

/**
 * 3. The client data path, in Node with the browser's own modules:
 * - a 1MB events page: `JSON.parse` + `parsePage(…, normaliseEvent)` (budget), and the
 *   whole `fetchContractEventsPage` over an in-memory `Response` (`response.json()`,
 *   `readPage`, the normaliser), which is exactly what the page runs per request;
 * - sorting 50,000 loaded events with `sortEvents`, the function the events table sorts
 *   with (the table runs in manual-sorting mode and is handed the sorted rows) and the
 *   export uses; timed from unsorted (loaded order), as when a header is clicked.
 */
const ADDRESS = STARKVERSE_GALLERY_ADDRESS;
const PARSE_BUDGET_MS = 15;
const SORT_BUDGET_MS = 100;
const SORT_EVENTS = 50_000;

async function repeat(
  context: BenchContext,
  runs: number,
  maxMs: number,
  task: () => void | Promise<void>,
): Promise<number[]> {
  const times: number[] = [];
  const stopAt = Date.now() + context.deadline.within(maxMs);
  for (let run = 0; run < runs && Date.now() < stopAt; run += 1) {
    const start = performance.now();
    await task();
    times.push(performance.now() - start);
  }
  return times;
}

async function parseBench(context: BenchContext) {
  const { report } = context;
  const bench = '3 client';
  const text = await getText(withPageParams(`/v1/events/${ADDRESS}`, null, 5000));
  const bytes = Buffer.byteLength(text);
  const normalise = (item: unknown) => normaliseEvent(item, ADDRESS);
  let items = 0;
  const parse = () => {
    const page = parsePage(JSON.parse(text), normalise);
    items = page.items.length;
  };
  await repeat(context, 10, 5_000, parse);
  const parseTimes = await repeat(context, 40, 10_000, parse);
  const jsonOnly = await repeat(context, 40, 5_000, () => void JSON.parse(text));

  // The page's own fetcher over a stub `fetch` that answers from memory.
  const realFetch = globalThis.fetch;
  globalThis.fetch = (async () =>
    new Response(text, { headers: { 'content-type': 'application/json' } })) as typeof fetch;
  let fetcherTimes: number[];
  try {
    await repeat(
      context,
      5,
      3_000,
      async () => void (await fetchContractEventsPage(ADDRESS, { cursor: null })),
    );
    fetcherTimes = await repeat(context, 30, 8_000, async () => {
      await fetchContractEventsPage(ADDRESS, { cursor: null });
    });
  } finally {
    globalThis.fetch = realFetch;
  }

  const parseMedian = median(parseTimes);
  report.budget(
    bench,
    `1MB page (${kb(bytes)}, ${count(items)} events): JSON.parse + parsePage(normaliseEvent), median`,
    medianMin(parseTimes),
    `≤ ${PARSE_BUDGET_MS} ms`,
    parseMedian <= PARSE_BUDGET_MS,
  );
  report.info(bench, '1MB page: JSON.parse alone, median', medianMin(jsonOnly));
  report.info(
    bench,
    '1MB page: fetchContractEventsPage over an in-memory Response, median',
    medianMin(fetcherTimes),
  );
  return { bytes, items, parseMs: parseTimes, jsonParseMs: jsonOnly, fetcherMs: fetcherTimes };
}

async function loadEvents(context: BenchContext, wanted: number): Promise<TokenEvent[]> {
  const events: TokenEvent[] = [];
  let cursor: string | null = null;
  for (
    let pages = 0;
    events.length < wanted && pages < 200 && !context.deadline.passed();
    pages += 1
  ) {
    const text = await getText(withPageParams(`/v1/events/${ADDRESS}`, cursor, 5000));
    const page = readPage(JSON.parse(text), (item) => normaliseEvent(item, ADDRESS));
    events.push(...page.items);
    if (!page.cursor) break;
    cursor = page.cursor;
  }
  if (events.length < wanted) throw new Error(`only ${events.length} events loaded`);
  return events.slice(0, wanted);
}

function sortBench(context: BenchContext, events: TokenEvent[]) {
  const { report } = context;
  const bench = '3 client';
  const sorts: Array<{ id: 'time' | 'token'; desc: boolean; label: string; budget: boolean }> = [
    { id: 'time', desc: true, label: 'time, newest first (first click)', budget: true },
    { id: 'time', desc: false, label: 'time, oldest first', budget: false },
    { id: 'token', desc: false, label: 'token id, ascending (first click)', budget: true },
    { id: 'token', desc: true, label: 'token id, descending', budget: false },
  ];
  const figures: Record<string, number[]> = {};
  for (const sort of sorts) {
    const times: number[] = [];
    for (let run = 0; run < 8 && !context.deadline.passed(); run += 1) {
      const start = performance.now();
      const rows = sortEvents(events, { id: sort.id, desc: sort.desc });
      const took = performance.now() - start;
      const first = rows[0];
      const last = rows[rows.length - 1];
      if (!first || !last) throw new Error('no rows');
      const order =
        sort.id === 'time'
          ? first.timestamp - last.timestamp
          : first.tokenId.length - last.tokenId.length || (first.tokenId < last.tokenId ? -1 : 1);
      if ((sort.desc && order < 0) || (!sort.desc && order > 0))
        throw new Error(`not sorted by ${sort.id}`);
      if (run > 0) times.push(took);
    }
    figures[sort.label] = times;
    const name = `sort ${count(events.length)} events by ${sort.label} (sortEvents, as the table), median`;
    if (sort.budget) {
      report.budget(
        bench,
        name,
        medianMin(times),
        `≤ ${SORT_BUDGET_MS} ms`,
        median(times) <= SORT_BUDGET_MS,
      );
    } else {
      report.info(bench, name, medianMin(times));
    }
  }
  return { sorts: figures };
}

export async function clientDataPath(context: BenchContext): Promise<void> {
  context.log('3. client data path: parsing a 1MB page');
  const parse = await parseBench(context);
  context.log(`3. client data path: loading ${SORT_EVENTS} events, sorting`);
  const events = await loadEvents(context, SORT_EVENTS);
  const sort = sortBench(context, events);
  context.report.set('clientData', { parse, sort });
}
