import { STARKVERSE_GALLERY_ADDRESS } from '../../src/server/sample-service';
import type { BenchContext } from './context';
import { withPageParams } from './lib/http';
import { getText, inProcessService } from './lib/in-process';
import { count, median, ms, percentile, round } from './lib/stats';

/**
 * 2. Sample service: the first page of its largest contract against a page 1,000 pages
 * deep (default dataset, limit 100), in-process through `service.fetch`, so that only
 * the service's own work is timed. The deep cursor comes from walking 1,000 pages first,
 * untimed; the two requests then alternate, so noise falls on both alike.
 */
const ADDRESS = STARKVERSE_GALLERY_ADDRESS;
const DEPTH = 1000;
const RUNS = 300;
const BUDGET_RATIO = 1.5;

interface Body {
  result?: unknown[] | null;
  cursor?: string | null;
}

export async function sampleServiceDepth(context: BenchContext): Promise<void> {
  const { report, log } = context;
  const bench = '2 sample';
  const path = `/v1/events/${ADDRESS}`;
  const contract = inProcessService().dataset.contracts.find((item) => item.address === ADDRESS);
  log(`2. sample service: walking ${DEPTH} pages`);
  let cursor: string | null = null;
  let walked = 0;
  let skippedShort = 0;
  for (; walked < DEPTH + 50 && !context.deadline.passed(); walked += 1) {
    const body = JSON.parse(await getText(withPageParams(path, cursor, 100))) as Body;
    if (!body.cursor) throw new Error(`the list ended after ${walked + 1} pages`);
    cursor = body.cursor;
    if (walked + 1 < DEPTH) continue;
    // Page DEPTH + 1 is the one timed: it must be a full page (the deployed profile serves
    // some short and empty ones), so the two requests do the same amount of work.
    const next = JSON.parse(await getText(withPageParams(path, cursor, 100))) as Body;
    if (next.result?.length === 100) break;
    skippedShort += 1;
  }
  if (!cursor) throw new Error('no deep cursor');
  const deepPath = withPageParams(path, cursor, 100);
  const firstPath = withPageParams(path, null, 100);

  const first: number[] = [];
  const deep: number[] = [];
  const stopAt = Date.now() + context.deadline.within(20_000);
  for (let run = 0; run < RUNS + 20 && Date.now() < stopAt; run += 1) {
    const pair = run % 2 === 0 ? [firstPath, deepPath] : [deepPath, firstPath];
    for (const target of pair) {
      const start = performance.now();
      await getText(target);
      const took = performance.now() - start;
      if (run >= 20) (target === firstPath ? first : deep).push(took);
    }
  }
  const ratio = median(deep) / median(first);
  report.info(
    bench,
    `largest contract (${count(contract?.eventCount ?? 0)} events), limit 100, ${first.length} runs each`,
    `first ${ms(median(first), 3)} · deep (page ${count(walked + 2)}) ${ms(median(deep), 3)}`,
  );
  report.info(
    bench,
    'p90 first / deep',
    `${ms(percentile(first, 90), 3)} / ${ms(percentile(deep, 90), 3)}`,
  );
  report.budget(
    bench,
    'deep / first median latency',
    `${round(ratio, 2)}×`,
    `≤ ${BUDGET_RATIO}×`,
    ratio <= BUDGET_RATIO,
  );
  report.set('sampleService', {
    contract: ADDRESS,
    eventCount: contract?.eventCount,
    deepPage: walked + 2,
    shortPagesSkipped: skippedShort,
    firstMs: first,
    deepMs: deep,
    ratio,
  });
}
