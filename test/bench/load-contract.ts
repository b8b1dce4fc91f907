import { WALK_PAGE_LIMIT } from '../../src/api/page-param';
import { loadPlain } from './lib/plain-load';
import { resolve } from 'node:path';
import { build, type Rolldown } from 'vite';
import { STARKVERSE_GALLERY_ADDRESS } from '../../src/server/sample-service';
import type { BenchContext } from './context';
import { launchChromium } from './lib/browser';
import { walkPages } from './lib/http';
import { count, median, ms, pct, round } from './lib/stats';

/**
 * 6. Loading a whole contract: every page of a ~50,000-event contract through our
 * production server, (a) in Chromium with the app's own fetcher (`fetchContractEventsPage`
 * bundled into the page: fetch, `response.json()`, the normaliser) with the read-ahead
 * that "Load full history" uses (each next page asked for from the `X-Next-Cursor`
 * header while the current one is parsed) and (b) in Node with plain `fetch` +
 * `JSON.parse`, page after page, and (c) a Chromium walk that only reads each page's
 * bytes (no parsing at all: the browser's floor). Budget: Chromium's bytes-only time /
 * the app's time ≥ 0.9, i.e. the app costs at most about 11% more than the browser itself
 * needs to move the pages, at the page size the app walks a whole contract with (limit
 * 5000; the smaller sizes are reported beside it). Beside them, for reference, Node's
 * time against the app's (the old budget, 0.8, which Chromium's bytes alone did not
 * reach here), the app's fetcher without read-ahead, and a plain fetch + JSON.parse walk
 * in Chromium.
 *
 * The default dataset has no contract near 50,000 events, so a second sample service
 * runs with 143,000 events (its busiest contract then has ~50,000), behind its own
 * production server (started by run.ts) whose cache is warmed first: both runs then read
 * the same cached pages, and the comparison is of the clients. Runs alternate (two of
 * each at limit 5000, which the service cuts at 1MB, and at 1000; one at limit 100);
 * medians; every browser walk starts in a fresh context, with an empty HTTP cache, as
 * Node's fetch has none.
 */
const ADDRESS = STARKVERSE_GALLERY_ADDRESS;
export const WHOLE_CONTRACT_DATASET_EVENTS = 143_000;
// The page size "Load full history" walks with, the largest the Settings offer, and the
// default; fewer runs of the long walk.
const PLAN = [
  { limit: WALK_PAGE_LIMIT, runs: 2 },
  { limit: 1000, runs: 2 },
  { limit: 100, runs: 1 },
];
const MAX_PAGES = 5_000;
const BUDGET = 0.9;

async function bundleLoader(): Promise<string> {
  const output = (await build({
    configFile: false,
    // Quiet: react-query's "use client" directives make rolldown warn when bundling.
    logLevel: 'error',
    define: { 'process.env.NODE_ENV': '"production"' },
    build: {
      write: false,
      minify: true,
      lib: {
        entry: resolve('test/bench/browser/load-contract.ts'),
        formats: ['iife'],
        name: 'benchLoad',
      },
    },
  })) as Rolldown.RolldownOutput | Rolldown.RolldownOutput[];
  const outputs = Array.isArray(output) ? output : [output];
  const chunk = outputs.flatMap((item) => item.output).find((item) => item.type === 'chunk');
  if (!chunk || chunk.type !== 'chunk') throw new Error('no bundle for the browser loader');
  return chunk.code;
}

export async function loadWholeContract(context: BenchContext): Promise<void> {
  const { report, log } = context;
  const bench = '6 load all';
  log('6. loading a whole contract: bundling the loader');
  const proxy = context.wholeContractProxy;
  const code = await bundleLoader();
  const browser = await launchChromium();
  try {
    // A fresh context (empty HTTP cache) for every walk: Node's fetch has no cache, and
    // the browser's would answer a repeated walk itself. Disabling the cache through CDP
    // instead would switch on DevTools' network instrumentation, a cost of its own.
    const freshPage = async () => {
      const page = await (await browser.newContext({ bypassCSP: true })).newPage();
      await page.goto(`${proxy.url}/healthz`);
      await page.addScriptTag({ content: code });
      return page;
    };

    const figures: Record<string, unknown> = {};
    for (const { limit, runs } of PLAN) {
      const warm = await walkPages({
        base: proxy.url,
        path: `/api/v1/events/${ADDRESS}`,
        limit,
        maxPages: MAX_PAGES,
        deadline: context.deadline,
      });
      const events = warm.reduce((sum, item) => sum + item.items, 0);
      const node: number[] = [];
      const chromium: number[] = [];
      const plain: number[] = [];
      const oneByOne: number[] = [];
      const bytes: number[] = [];
      for (let run = 0; run < runs && !context.deadline.passed(); run += 1) {
        const inBrowser = async (
          runner: 'benchLoadContract' | 'benchLoadOneByOne' | 'benchLoadPlain' | 'benchLoadBytes',
          into: number[],
        ) => {
          const page = await freshPage();
          const result = await page.evaluate(
            ([name, address, pageLimit, maxPages]) =>
              (
                globalThis as unknown as Record<
                  string,
                  (
                    a: string,
                    l: number,
                    m: number,
                  ) => Promise<{ ms: number; pages: number; events?: number }>
                >
              )[name]!(address, pageLimit, maxPages),
            [runner, ADDRESS, limit, MAX_PAGES] as const,
          );
          await page.context().close();
          // The bytes-only walk parses nothing, so it can count pages, not events.
          if (result.pages !== warm.length || (result.events ?? events) !== events)
            throw new Error(
              `browser loaded ${result.events ?? '?'} of ${events} events in ${result.pages} of ${warm.length} pages`,
            );
          into.push(result.ms);
        };
        const inNode = async () => {
          const result = await loadPlain(proxy.url, ADDRESS, limit, MAX_PAGES);
          if (result.events !== events)
            throw new Error(`node loaded ${result.events} of ${events} events`);
          node.push(result.ms);
        };
        const steps = [
          inNode,
          () => inBrowser('benchLoadContract', chromium),
          () => inBrowser('benchLoadPlain', plain),
          () => inBrowser('benchLoadOneByOne', oneByOne),
          () => inBrowser('benchLoadBytes', bytes),
        ];
        for (const step of run % 2 === 0 ? steps : [...steps].reverse()) await step();
      }
      const ratio = median(node) / median(chromium);
      report.info(
        bench,
        `${count(events)} events in ${count(warm.length)} pages of ${limit}`,
        `Chromium + app fetcher ${ms(median(chromium), 0)} · Node fetch + JSON.parse ${ms(median(node), 0)}`,
      );
      report.info(
        bench,
        `limit ${limit}: Chromium + app fetcher without read-ahead (page after page)`,
        `${ms(median(oneByOne), 0)} (Node / it: ${round(median(node) / median(oneByOne), 2)})`,
      );
      report.info(
        bench,
        `limit ${limit}: Chromium plain fetch + JSON.parse (no normaliser)`,
        `${ms(median(plain), 0)} (Node / it: ${round(median(node) / median(plain), 2)})`,
      );
      report.info(
        bench,
        `limit ${limit}: Chromium reading the bytes only (no text, no JSON)`,
        `${ms(median(bytes), 0)} (Node / it: ${round(median(node) / median(bytes), 2)})`,
      );
      report.info(
        bench,
        `limit ${limit}: Node time / browser time`,
        `${round(ratio, 2)} (${pct(ratio)})`,
      );
      // The budget compares the app with the least Chromium itself needs to move the same
      // pages into the page (Node's walk is no floor the browser can reach: measured
      // 0.66–0.74 for bytes alone). It is on the page size the app loads a whole contract
      // with; smaller pages show the browser's own cost per request.
      const againstBytes = median(bytes) / median(chromium);
      const name = `limit ${limit}: Chromium bytes-only time / app time`;
      const figure = `${round(againstBytes, 2)} (${pct(againstBytes)})`;
      if (limit === WALK_PAGE_LIMIT)
        report.budget(bench, name, figure, `≥ ${BUDGET}`, againstBytes >= BUDGET);
      else report.info(bench, name, figure);
      figures[`limit${limit}`] = {
        events,
        pages: warm.length,
        nodeMs: node,
        chromiumMs: chromium,
        chromiumPlainMs: plain,
        chromiumOneByOneMs: oneByOne,
        chromiumBytesOnlyMs: bytes,
        ratio,
        againstBytes,
      };
    }
    report.set('loadWholeContract', {
      contract: ADDRESS,
      datasetEvents: WHOLE_CONTRACT_DATASET_EVENTS,
      ...figures,
    });
  } finally {
    await browser.close();
  }
}
