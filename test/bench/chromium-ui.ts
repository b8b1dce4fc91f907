import type { Browser, BrowserContext, Page } from '@playwright/test';
import type { CollectionAnswer, EventsAnswer } from '../../src/lib/answers';
import { STARKVERSE_GALLERY_ADDRESS } from '../../src/server/sample-service';
import type { BenchContext } from './context';
import { launchChromium } from './lib/browser';
import { startProductionServer, type Running } from './lib/processes';
import { count, median, ms, percentile, round } from './lib/stats';

/**
 * 4. In Chromium, the production build served by a production server with its record log
 * and event index (started by this bench over the run's sample service, default dataset;
 * no background indexing, so that only the collection under test is read), on the busiest
 * collection (StarkVerse Gallery):
 * - before anything is timed, the collection is indexed: `GET /api/collections/:address`
 *   starts the whole walk, and it is asked again each second until `coverage.complete`;
 * - first row of a shared URL: for six views of the collection (newest first, by price,
 *   sales by price, transfers by token, an address, a date span) and the other pages over
 *   it (the ranking, a token, the holders, the market, a wallet, a transaction), time from
 *   navigation start to the first answer row (an events table's `tbody tr[data-index]`,
 *   the market's top sale, the transaction's first change of hands: a MutationObserver
 *   installed before the app records `performance.now()`, which counts from the
 *   navigation), every visit in a
 *   fresh browser context (cold HTTP cache), views taken in turn; p50 and p95 per view;
 * - 10,000 rows read: page size 500 from the Settings (stored in localStorage as the
 *   Settings dialog does; the server serves at most 500 a page), "Load more" clicked until
 *   the status line says 10,000 or more are shown; then rows in the DOM and the JS heap
 *   after a forced GC (CDP `Runtime.getHeapUsage`);
 * - frame times while scrolling through them, `window.scrollTo` once per animation frame
 *   and the deltas between `requestAnimationFrame` callbacks: at wheel speed (100 px a
 *   frame, five stretches spread over the list) and as a scrollbar drag from the top to
 *   100 rows before the end in 300 frames (every row new every frame). Beside them, an
 *   idle page's frame times (the machine's floor) and main-thread task time per frame
 *   (CDP Performance metrics), which does not include waiting for vsync. Scrolling stops
 *   100 rows before the end so the table's own near-the-end loading does not start;
 *   performance.now() is coarsened to 0.1 ms, so 0.5 ms of jitter is allowed;
 * - a reload: first row after `page.reload()` in the same context (warm HTTP cache),
 *   alternated with first visits in fresh contexts, and how long of it the events answer
 *   took: what keeping the rows in IndexedDB could at most have saved.
 */
const ADDRESS = STARKVERSE_GALLERY_ADDRESS;
const BENCH = '4 chromium';
const VISITS = 5;
const RELOADS = 5;
const FIRST_ROW_BUDGET_MS = 1_500;
const ROW_TARGET = 10_000;
const PAGE_SIZE = 500;
const HEAP_BUDGET_MB = 60;
const ROWS_BUDGET = 200;
const FRAME_BUDGET_MS = 16.7;
// performance.now() is coarsened to 0.1 ms and vsync jitters: an idle page's p95 is 16.8 ms.
const FRAME_JITTER_MS = 0.5;
const SCROLL_FRAMES = 300;
const WHEEL_FRAMES = 40;
const WHEEL_PX = 100;
const SETTINGS_KEY = 'token-activity-settings';
// How long the collection may take to be wholly indexed (the run's deadline bounds it too).
const INDEX_TIMEOUT_MS = 240_000;

declare global {
  interface Window {
    __benchFirstRowAt?: number;
  }
}

// An events table's row; other pages name their own first answer (see `viewsOf`).
const EVENT_ROW = 'tbody tr[data-index]';

function recordFirstRow(selector: string) {
  const check = () => {
    if (window.__benchFirstRowAt === undefined && document.querySelector(selector)) {
      window.__benchFirstRowAt = performance.now();
      observer.disconnect();
    }
  };
  const observer = new MutationObserver(check);
  observer.observe(document, { childList: true, subtree: true });
}

async function newContext(
  browser: Browser,
  pageSize?: number,
  rowSelector = EVENT_ROW,
): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  // tsx (esbuild keepNames) wraps nested functions in `__name(…)`, which the functions
  // sent to the page then call: give the page a no-op one.
  await context.addInitScript({ content: 'globalThis.__name ??= (fn) => fn;' });
  await context.addInitScript(recordFirstRow, rowSelector);
  if (pageSize !== undefined) {
    await context.addInitScript(
      ([key, size]) => localStorage.setItem(key, JSON.stringify({ pageSize: size })),
      [SETTINGS_KEY, pageSize] as const,
    );
  }
  return context;
}

const firstRowAt = async (page: Page) => {
  await page.waitForFunction(() => window.__benchFirstRowAt !== undefined, undefined, {
    timeout: 30_000,
  });
  return page.evaluate(() => window.__benchFirstRowAt as number);
};

async function open(page: Page, url: string): Promise<number> {
  await page.goto(url, { waitUntil: 'commit', timeout: 30_000 });
  return firstRowAt(page);
}

/**
 * The table's status line ("500 of 112,017 events shown · loading more…", "all 12 events
 * shown"): rows shown, whether all are, whether a page is on its way. Read in the page.
 */
function statusInPage() {
  const line = [...document.querySelectorAll('[aria-live="polite"]')]
    .map((element) => element.textContent ?? '')
    .find((text) => / shown\b/.test(text));
  const match = line === undefined ? null : /([\d,]+)(?: of [\d,]+)? events? shown/.exec(line);
  return {
    shown: match ? Number((match[1] as string).replaceAll(',', '')) : 0,
    all: line?.startsWith('all ') ?? false,
    busy: line?.includes('loading more') ?? false,
  };
}

const status = (page: Page) => page.evaluate(statusInPage);

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/**
 * Asks for the collection (which starts the indexer's whole walk) until its coverage is
 * complete; the answer then, and how long it took.
 */
async function indexCollection(context: BenchContext, base: string) {
  const started = performance.now();
  const limit = context.deadline.within(INDEX_TIMEOUT_MS);
  let last: CollectionAnswer | undefined;
  let problem = '';
  let logged = 0;
  for (;;) {
    try {
      const response = await fetch(`${base}/api/collections/${ADDRESS}`);
      if (response.ok) {
        last = (await response.json()) as CollectionAnswer;
        if (last.coverage.complete && last.figures) break;
      } else problem = `${response.status} ${(await response.text()).slice(0, 200)}`;
    } catch (error) {
      problem = error instanceof Error ? error.message : String(error);
    }
    const took = performance.now() - started;
    if (took > limit) {
      const indexing = last?.coverage.indexing;
      throw new Error(
        `the collection was not wholly indexed within ${round(limit / 1000, 0)} s: ` +
          `${count(last?.coverage.records ?? 0)} records stored` +
          (indexing
            ? `, ${indexing.pages} pages read at ${round(indexing.pagesPerSecond, 1)}/s`
            : '') +
          (last ? `; "${last.coverage.statement}"` : '') +
          (problem ? `; last error: ${problem}` : ''),
      );
    }
    if (took - logged > 10_000) {
      logged = took;
      context.log(
        `4. indexing: ${count(last?.coverage.records ?? 0)} records after ${round(took / 1000, 0)} s`,
      );
    }
    await sleep(1_000);
  }
  return { answer: last, ms: performance.now() - started };
}

interface View {
  name: string;
  /** Path and search of the shared URL. */
  url: string;
  /** What the page's first answer row is (an events table's row unless said). */
  selector?: string;
}

/**
 * The views timed: what shared URLs ask for. The collection's events in six views, then
 * each other page over it: the ranking, a token's history, the holders, the market, the
 * busiest wallet among its newest events and a transaction.
 */
async function viewsOf(base: string, answer: CollectionAnswer): Promise<View[]> {
  const newest = (await (
    await fetch(`${base}/api/collections/${ADDRESS}/events?limit=500`)
  ).json()) as EventsAnswer;
  // The address with the most events among the newest 500: a wallet one would share.
  const seen = new Map<string, number>();
  for (const event of newest.events) {
    for (const address of [event.from, event.to]) {
      if (/^0x0*$/.test(address)) continue;
      seen.set(address, (seen.get(address) ?? 0) + 1);
    }
  }
  const wallet = [...seen].sort((a, b) => b[1] - a[1])[0]?.[0];
  const sale = newest.events.find((event) => event.kind === 'sale') ?? newest.events[0];
  if (!wallet || !sale) throw new Error('no address among the newest events');
  // Thirty days in the middle of the history.
  const { firstActivity, lastActivity } = answer.figures!;
  const middle = Math.floor(((firstActivity ?? 0) + (lastActivity ?? 0)) / 2 / 86_400) * 86_400;
  const day = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10);
  const events = `/contracts/${ADDRESS}`;
  return [
    { name: 'newest first', url: events },
    { name: 'by price, highest first', url: `${events}?sort=-price` },
    { name: 'sales by price, highest first', url: `${events}?kind=sale&sort=-price` },
    { name: 'transfers by token', url: `${events}?kind=transfer&sort=token` },
    { name: 'an address', url: `${events}?address=${wallet}` },
    {
      name: 'a 30-day span',
      url: `${events}?from=${day(middle)}&to=${day(middle + 30 * 86_400)}`,
    },
    { name: 'the ranking', url: '/contracts' },
    { name: "a token's history", url: `${events}/tokens/${sale.tokenId}` },
    { name: 'the holders', url: `${events}/holders` },
    { name: 'the market (top sales)', url: `${events}/market`, selector: 'main table tbody tr' },
    { name: 'a wallet', url: `/addresses/${wallet}` },
    {
      name: 'a transaction',
      url: `/transactions/${sale.transactionHash}`,
      selector: 'main ol > li',
    },
  ];
}

async function firstRows(context: BenchContext, browser: Browser, base: string, views: View[]) {
  const times = new Map<string, number[]>(views.map((view) => [view.name, []]));
  for (let visit = 0; visit < VISITS && !context.deadline.passed(); visit += 1) {
    for (const view of views) {
      const browserContext = await newContext(browser, undefined, view.selector);
      try {
        const page = await browserContext.newPage();
        times.get(view.name)!.push(await open(page, `${base}${view.url}`));
      } finally {
        await browserContext.close();
      }
    }
  }
  const figures: Record<string, { url: string; ms: number[] }> = {};
  for (const view of views) {
    const list = times.get(view.name)!;
    const p95 = percentile(list, 95);
    figures[view.name] = { url: view.url, ms: list };
    context.report.budget(
      BENCH,
      `first row of a shared URL, fresh context, ${view.name} (${view.url.replace(ADDRESS, '…').slice(0, 40)}): p50 / p95 (max) of ${list.length}`,
      `${ms(median(list), 0)} / ${ms(p95, 0)}`,
      `p95 ≤ ${count(FIRST_ROW_BUDGET_MS)} ms`,
      p95 <= FIRST_ROW_BUDGET_MS,
    );
  }
  return figures;
}

/** Clicks "Load more" until the status line says `target` rows or more are shown. */
async function readRows(context: BenchContext, page: Page, target: number) {
  let state = await status(page);
  const stopAt = Date.now() + context.deadline.within(120_000);
  const pageMs: number[] = [];
  while (state.shown < target && !state.all && Date.now() < stopAt && pageMs.length < 100) {
    const before = state.shown;
    const clickStart = performance.now();
    const button = page.getByRole('button', { name: 'Load more' });
    await button.click({ timeout: 30_000 });
    const waitUntil = Date.now() + 30_000;
    do {
      await sleep(50);
      state = await status(page);
    } while ((state.shown <= before || state.busy) && Date.now() < waitUntil);
    pageMs.push(performance.now() - clickStart);
  }
  if (state.shown < target) throw new Error(`only ${count(state.shown)} rows shown`);
  return { shown: state.shown, pageMs };
}

async function rowsHeapFrames(context: BenchContext, browser: Browser, base: string) {
  const { report } = context;
  const browserContext = await newContext(browser, PAGE_SIZE);
  try {
    const page = await browserContext.newPage();
    await open(page, `${base}/contracts/${ADDRESS}`);
    const loadStart = performance.now();
    const read = await readRows(context, page, ROW_TARGET);
    const loadMs = performance.now() - loadStart;
    report.info(
      BENCH,
      `"Load more" to ${count(read.shown)} rows (${PAGE_SIZE} a page): total; a page, median / max`,
      `${ms(loadMs, 0)}; ${ms(median(read.pageMs), 0)} / ${ms(Math.max(...read.pageMs), 0)}`,
    );
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.evaluate(
      () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))),
    );
    const state = await status(page);
    const dom = await page.evaluate(() => ({
      tr: document.querySelectorAll('tr').length,
      dataRows: document.querySelectorAll('tbody tr[data-index]').length,
      rowHeight:
        document.querySelector('tbody tr[data-index]')?.getBoundingClientRect().height ?? 48,
    }));
    report.budget(
      BENCH,
      `<tr> in the DOM with ${count(state.shown)} rows read (${dom.dataRows} event rows)`,
      `${dom.tr}`,
      `< ${ROWS_BUDGET}`,
      dom.tr < ROWS_BUDGET,
    );

    const cdp = await browserContext.newCDPSession(page);
    const heapNow = async () => {
      await cdp.send('HeapProfiler.enable');
      await cdp.send('HeapProfiler.collectGarbage');
      const usage = (await cdp.send('Runtime.getHeapUsage')) as {
        usedSize: number;
        totalSize: number;
      };
      await cdp.send('HeapProfiler.disable');
      return usage;
    };
    const heap = await heapNow();
    const heapMb = heap.usedSize / 1024 / 1024;
    report.budget(
      BENCH,
      `JS heap after reading ${count(state.shown)} rows (after a forced GC)`,
      `${round(heapMb, 1)} MB (${count(heap.usedSize / state.shown)} B/row)`,
      `≤ ${HEAP_BUDGET_MB} MB`,
      heapMb <= HEAP_BUDGET_MB,
    );

    // Main-thread time per frame (CDP Performance metrics, seconds of task time): what the
    // page itself costs, apart from waiting for vsync or for a busy machine's CPU.
    await cdp.send('Performance.enable');
    const metrics = async () => {
      const { metrics: list } = (await cdp.send('Performance.getMetrics')) as {
        metrics: Array<{ name: string; value: number }>;
      };
      return Object.fromEntries(list.map((metric) => [metric.name, metric.value]));
    };
    const perFrame = (
      before: Record<string, number>,
      after: Record<string, number>,
      frames: number,
    ) => {
      const of = (name: string) => (((after[name] ?? 0) - (before[name] ?? 0)) * 1000) / frames;
      return {
        taskMs: of('TaskDuration'),
        scriptMs: of('ScriptDuration'),
        layoutMs: of('LayoutDuration'),
        styleMs: of('RecalcStyleDuration'),
      };
    };
    const workText = (work: ReturnType<typeof perFrame>) =>
      `${ms(work.taskMs, 1)} (script ${ms(work.scriptMs, 1)}, layout ${ms(work.layoutMs, 1)}, style ${ms(work.styleMs, 1)})`;

    const idleBefore = await metrics();
    const idle = await page.evaluate(
      (frames) =>
        new Promise<number[]>((done) => {
          const deltas: number[] = [];
          let last = -1;
          const tick = (now: number) => {
            if (last >= 0) deltas.push(now - last);
            last = now;
            if (deltas.length < frames) requestAnimationFrame(tick);
            else done(deltas);
          };
          requestAnimationFrame(tick);
        }),
      120,
    );
    const idleWork = perFrame(idleBefore, await metrics(), idle.length);
    // Apart from the scroll's own: what the Performance domain and the idle frames add.
    const heapBeforeScroll = await heapNow();
    const rows = state.shown;
    const { rowHeight } = dom;
    const scroll = (frames: number, pixelsPerFrame: number | null) =>
      page.evaluate(
        ({ frames: count, perFrame, rowHeight, rows }) =>
          new Promise<{
            deltas: number[];
            from: number;
            to: number;
            maxRows: number;
            lastIndex: number;
          }>((done) => {
            const body = document.querySelector('table tbody') as HTMLElement;
            const tableTop = body.getBoundingClientRect().top + window.scrollY;
            const from = window.scrollY;
            const end = tableTop + (rows - 100) * rowHeight - window.innerHeight;
            const step = perFrame ?? (end - from) / count;
            const deltas: number[] = [];
            let maxRows = 0;
            let last = -1;
            let frame = 0;
            const tick = (now: number) => {
              if (last >= 0) deltas.push(now - last);
              last = now;
              if (frame % 10 === 0)
                maxRows = Math.max(maxRows, document.querySelectorAll('tr').length);
              frame += 1;
              if (frame > count) {
                const indexes = [...document.querySelectorAll('tbody tr[data-index]')].map((row) =>
                  Number(row.getAttribute('data-index')),
                );
                done({
                  deltas,
                  from,
                  to: window.scrollY,
                  maxRows,
                  lastIndex: Math.max(...indexes),
                });
                return;
              }
              window.scrollTo(0, Math.min(end, from + step * frame));
              requestAnimationFrame(tick);
            };
            requestAnimationFrame(tick);
          }),
        { frames, perFrame: pixelsPerFrame, rowHeight, rows },
      );
    // Wheel speed through the whole list: 100 px a frame in five stretches spread over it
    // (0%, 25%, 50%, 75%, 95%), 40 frames each; the jumps between stretches are not timed.
    const wheel: number[] = [];
    let wheelWork = { taskMs: 0, scriptMs: 0, layoutMs: 0, styleMs: 0 };
    for (const at of [0, 0.25, 0.5, 0.75, 0.95]) {
      await page.evaluate(
        ({ fraction, rowHeight, rows }) => {
          const body = document.querySelector('table tbody') as HTMLElement;
          const top = body.getBoundingClientRect().top + window.scrollY;
          window.scrollTo(0, top + fraction * (rows - 150) * rowHeight);
          return new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
        },
        { fraction: at, rowHeight, rows },
      );
      const before = await metrics();
      wheel.push(...(await scroll(WHEEL_FRAMES, WHEEL_PX)).deltas);
      const work = perFrame(before, await metrics(), WHEEL_FRAMES);
      wheelWork = {
        taskMs: wheelWork.taskMs + work.taskMs / 5,
        scriptMs: wheelWork.scriptMs + work.scriptMs / 5,
        layoutMs: wheelWork.layoutMs + work.layoutMs / 5,
        styleMs: wheelWork.styleMs + work.styleMs / 5,
      };
    }
    const wheelP95 = percentile(wheel, 95);
    report.budget(
      BENCH,
      `p95 frame time, wheel-speed scroll through ${count(rows)} rows (${WHEEL_PX} px/frame, ${wheel.length} frames)`,
      ms(wheelP95, 1),
      `≤ ${FRAME_BUDGET_MS} ms (+${FRAME_JITTER_MS} jitter)`,
      wheelP95 <= FRAME_BUDGET_MS + FRAME_JITTER_MS,
    );
    // A scrollbar drag from top to bottom in 300 frames: every row of every frame is new.
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.evaluate(
      () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))),
    );
    const dragBefore = await metrics();
    const through = await scroll(SCROLL_FRAMES, null);
    const dragWork = perFrame(dragBefore, await metrics(), SCROLL_FRAMES);
    const after = await status(page);
    const p95 = percentile(through.deltas, 95);
    const pixelsPerFrame = (through.to - through.from) / SCROLL_FRAMES;
    report.budget(
      BENCH,
      `p95 frame time, scrollbar drag through all ${count(rows)} rows (${round(pixelsPerFrame, 0)} px/frame, ${SCROLL_FRAMES} frames)`,
      ms(p95, 1),
      `≤ ${FRAME_BUDGET_MS} ms (+${FRAME_JITTER_MS} jitter)`,
      p95 <= FRAME_BUDGET_MS + FRAME_JITTER_MS,
    );
    report.info(
      BENCH,
      'drag: median / max frame, frames > 20 ms, max <tr> seen, last row reached',
      `${ms(median(through.deltas), 1)} / ${ms(Math.max(...through.deltas), 1)}, ${through.deltas.filter((delta) => delta > 20).length} of ${through.deltas.length}, ${through.maxRows}, ${count(through.lastIndex + 1)}`,
    );
    report.info(
      BENCH,
      "idle page (no scrolling): p95 frame time, the machine's own floor",
      ms(percentile(idle, 95), 1),
    );
    report.info(BENCH, 'main-thread task time per frame: wheel scroll', workText(wheelWork));
    report.info(BENCH, 'main-thread task time per frame: drag', workText(dragWork));
    report.info(BENCH, 'main-thread task time per frame: idle page', workText(idleWork));
    if (after.shown !== rows) {
      report.note(`4: ${after.shown - rows} rows were loaded during the scroll.`);
    }
    const heapAfter = await heapNow();
    report.info(
      BENCH,
      'JS heap after the scrolling (forced GC); before it, after the idle frames',
      `${round(heapAfter.usedSize / 1024 / 1024, 1)} MB; ${round(heapBeforeScroll.usedSize / 1024 / 1024, 1)} MB`,
    );
    return {
      shown: rows,
      loadMs,
      loadMorePageMs: read.pageMs,
      dom,
      heapUsedBytes: heap.usedSize,
      heapTotalBytes: heap.totalSize,
      heapBeforeScrollBytes: heapBeforeScroll.usedSize,
      heapAfterScrollBytes: heapAfter.usedSize,
      idleFrameMs: idle,
      scrollWheelMs: wheel,
      scrollDrag: { ...through, pixelsPerFrame },
      mainThreadPerFrame: { idle: idleWork, wheel: wheelWork, drag: dragWork },
      shownAfterScroll: after.shown,
    };
  } finally {
    await browserContext.close();
  }
}

/**
 * Navigation → the events answer's end (Resource Timing), and whether the page's scripts
 * came from the HTTP cache (no bytes transferred).
 */
function answerTiming() {
  const entries = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
  const events = entries.find((entry) => /\/api\/collections\/[^/]+\/events\?/.test(entry.name));
  const scripts = entries.filter(
    (entry) => entry.initiatorType === 'script' || /\.js$/.test(entry.name),
  );
  return {
    eventsStart: events?.startTime ?? Number.NaN,
    eventsEnd: events?.responseEnd ?? Number.NaN,
    scripts: scripts.length,
    scriptsCached: scripts.filter((entry) => entry.transferSize === 0).length,
  };
}

async function reloads(context: BenchContext, browser: Browser, base: string) {
  const fresh: number[] = [];
  const reloaded: number[] = [];
  const answerWait: number[] = [];
  let cached = { scripts: 0, scriptsCached: 0 };
  for (let round = 0; round < RELOADS && !context.deadline.passed(); round += 1) {
    const browserContext = await newContext(browser);
    try {
      const page = await browserContext.newPage();
      fresh.push(await open(page, `${base}/contracts/${ADDRESS}`));
      await page.reload({ waitUntil: 'commit', timeout: 30_000 });
      const at = await firstRowAt(page);
      reloaded.push(at);
      const timing = await page.evaluate(answerTiming);
      answerWait.push(timing.eventsEnd - timing.eventsStart);
      cached = timing;
    } finally {
      await browserContext.close();
    }
  }
  const { report } = context;
  report.info(
    BENCH,
    `reload → first row, same context (warm HTTP cache; ${cached.scriptsCached} of ${cached.scripts} scripts from it), newest first: p50 / p95 of ${reloaded.length}`,
    `${ms(median(reloaded), 0)} / ${ms(percentile(reloaded, 95), 0)}`,
  );
  report.info(
    BENCH,
    'the same, first visits in fresh contexts alternated with the reloads: p50 / p95; reload / visit (p50)',
    `${ms(median(fresh), 0)} / ${ms(percentile(fresh, 95), 0)}; ${round(median(reloaded) / median(fresh))}`,
  );
  report.info(
    BENCH,
    'of a reload, the events answer (request → response end), p50: the most rows kept in IndexedDB could save',
    ms(median(answerWait), 0),
  );
  return { freshMs: fresh, reloadMs: reloaded, eventsAnswerMs: answerWait, ...cached };
}

export async function chromiumUi(context: BenchContext): Promise<void> {
  const figures: Record<string, unknown> = {};
  const step = async (name: string, task: () => Promise<unknown>) => {
    context.log(`4. Chromium: ${name}`);
    try {
      figures[name] = await task();
    } catch (error) {
      context.report.failed(BENCH, error);
    }
  };
  context.log('4. starting a production server with the event index');
  let server: Running | undefined;
  let browser: Browser | undefined;
  try {
    server = await startProductionServer({
      clientDir: context.clientDir,
      upstreamUrl: context.sample.url,
      key: context.sampleKey,
      // No background indexing of the other collections.
      env: { INDEX_BACKGROUND_SHARE: '0' },
    });
    const base = server.url;
    context.log(`4. indexing ${ADDRESS}: asking the collection until its history is complete`);
    const indexed = await indexCollection(context, base);
    const answer = indexed.answer!;
    figures.indexing = { ms: indexed.ms, records: answer.coverage.records };
    context.report.info(
      BENCH,
      `the collection wholly indexed before timing: events / records, time`,
      `${count(answer.figures!.events)} / ${count(answer.coverage.records)}, ${ms(indexed.ms, 0)}`,
    );
    const views = await viewsOf(base, answer);
    browser = await launchChromium();
    const chromium = browser;
    await step('first row per view', () => firstRows(context, chromium, base, views));
    await step(`${ROW_TARGET} rows: heap, scrolling`, () =>
      rowsHeapFrames(context, chromium, base),
    );
    await step('reload', () => reloads(context, chromium, base));
  } finally {
    context.report.set('chromium', figures);
    await browser?.close();
    await server?.stop();
  }
}
