import { constructTable, type SortingState } from '@tanstack/table-core';
import { storeReactivityBindings } from '@tanstack/table-core/store-reactivity-bindings';
import { fetchContractEventsPage } from '../../src/api/contract-events';
import { readPage } from '../../src/api/contracts';
import { normaliseEvent, parsePage } from '../../src/api/normalise';
import type { TokenEvent } from '../../src/api/types';
import { listFeatures } from '../../src/components/table-features';
import { sortEvents } from '../../src/lib/event-view';
import * as eventColumnsModule from '../../src/pages/contract-events/event-columns';
import { STARKVERSE_GALLERY_ADDRESS } from '../../src/server/sample-service';
import type { BenchContext } from './context';
import { pagePath } from './lib/http';
import { getText } from './lib/in-process';
import { count, kb, median, ms } from './lib/stats';

/** `median (min …)`: on a busy machine the minimum shows what the code costs undisturbed. */
const medianMin = (times: number[]) => `${ms(median(times))} (min ${ms(Math.min(...times))})`;

/**
 * 3. The client data path, in Node with the browser's own modules:
 * - a 1MB events page: `JSON.parse` + `parsePage(…, normaliseEvent)` (budget), and the
 *   whole `fetchContractEventsPage` over an in-memory `Response` (`response.json()`,
 *   `readPage`, the normaliser), which is exactly what the page runs per request;
 * - sorting 50,000 loaded events through the table the UI renders: a TanStack Table v9
 *   instance (`constructTable`, the app's `listFeatures` with its sorted row model) with
 *   the real column definitions (`eventColumns`) and their sortFns; timed from the sort
 *   change to the sorted rows. `sortEvents` over `Array.prototype.sort` (the export's
 *   order) is shown beside it.
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
  const text = await getText(pagePath(`/v1/events/${ADDRESS}`, null, 5000));
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
    await repeat(context, 5, 3_000, async () => void (await fetchContractEventsPage(ADDRESS, null)));
    fetcherTimes = await repeat(context, 30, 8_000, async () => {
      await fetchContractEventsPage(ADDRESS, null);
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

/**
 * The contract page's column definitions, whichever way the page module offers them: a
 * constant (`contractEventColumns`) or a factory taking the view (`eventColumns`).
 */
function contractEventColumns(): unknown[] {
  const module = eventColumnsModule as Record<string, unknown>;
  if (Array.isArray(module.contractEventColumns)) return module.contractEventColumns;
  if (typeof module.eventColumns === 'function') {
    const view = { display: 'relative', zone: 'utc', nowMs: Date.now(), activeAddress: null };
    return (module.eventColumns as (view: unknown) => unknown[])(view);
  }
  throw new Error('event-columns exports neither contractEventColumns nor eventColumns');
}

async function loadEvents(context: BenchContext, wanted: number): Promise<TokenEvent[]> {
  const events: TokenEvent[] = [];
  let cursor: string | null = null;
  for (let pages = 0; events.length < wanted && pages < 200 && !context.deadline.passed(); pages += 1) {
    const text = await getText(pagePath(`/v1/events/${ADDRESS}`, cursor, 5000));
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
  const columns = contractEventColumns();
  const buildTable = () =>
    constructTable({
      features: { coreReactivityFeature: storeReactivityBindings(), ...listFeatures },
      columns: columns as never,
      data: events,
      getRowId: (row: TokenEvent) => row.key,
      enableMultiSort: false,
    } as never) as unknown as {
      setSorting: (sorting: SortingState) => void;
      getRowModel: () => { rows: Array<{ original: TokenEvent }> };
    };

  // What the page pays when rows arrive while a sort is on: a new table row model, sorted.
  const coldStart = performance.now();
  const table = buildTable();
  table.setSorting([{ id: 'time', desc: true }]);
  const coldRows = table.getRowModel().rows;
  const coldMs = performance.now() - coldStart;
  if (coldRows.length !== events.length) throw new Error(`table has ${coldRows.length} rows`);

  const sorts: Array<{ id: 'time' | 'token'; desc: boolean; label: string; budget: boolean }> = [
    { id: 'time', desc: true, label: 'time, newest first (first click)', budget: true },
    { id: 'time', desc: false, label: 'time, oldest first', budget: false },
    { id: 'token', desc: false, label: 'token id, ascending (first click)', budget: true },
    { id: 'token', desc: true, label: 'token id, descending', budget: false },
  ];
  const figures: Record<string, { tableMs: number[]; arrayMs: number[] }> = {};
  for (const sort of sorts) {
    const tableMs: number[] = [];
    for (let run = 0; run < 8 && !context.deadline.passed(); run += 1) {
      // From unsorted (loaded order), as when a header is clicked.
      table.setSorting([]);
      table.getRowModel();
      const start = performance.now();
      table.setSorting([{ id: sort.id, desc: sort.desc }]);
      const rows = table.getRowModel().rows;
      const took = performance.now() - start;
      const first = rows[0]?.original;
      const last = rows[rows.length - 1]?.original;
      if (!first || !last) throw new Error('no rows');
      const order = sort.id === 'time' ? first.timestamp - last.timestamp : first.tokenId.length - last.tokenId.length || (first.tokenId < last.tokenId ? -1 : 1);
      if ((sort.desc && order < 0) || (!sort.desc && order > 0)) throw new Error(`not sorted by ${sort.id}`);
      if (run > 0) tableMs.push(took);
    }
    const arrayMs: number[] = [];
    for (let run = 0; run < 8 && !context.deadline.passed(); run += 1) {
      const start = performance.now();
      sortEvents(events, { id: sort.id, desc: sort.desc });
      if (run > 0) arrayMs.push(performance.now() - start);
    }
    figures[sort.label] = { tableMs, arrayMs };
    const tableMedian = median(tableMs);
    const name = `sort ${count(events.length)} events by ${sort.label}: TanStack sorted row model, median`;
    if (sort.budget) {
      report.budget(bench, name, medianMin(tableMs), `≤ ${SORT_BUDGET_MS} ms`, tableMedian <= SORT_BUDGET_MS);
    } else {
      report.info(bench, name, medianMin(tableMs));
    }
    report.info(bench, `sort by ${sort.label}: sortEvents (Array.prototype.sort), median`, medianMin(arrayMs));
  }
  report.info(bench, `new table over ${count(events.length)} rows + sort by time`, ms(coldMs));
  return { coldMs, sorts: figures };
}

export async function clientDataPath(context: BenchContext): Promise<void> {
  context.log('3. client data path: parsing a 1MB page');
  const parse = await parseBench(context);
  context.log(`3. client data path: loading ${SORT_EVENTS} events, sorting`);
  const events = await loadEvents(context, SORT_EVENTS);
  const sort = sortBench(context, events);
  context.report.set('clientData', { parse, sort });
}
