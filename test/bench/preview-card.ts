import { setImmediate as tick } from 'node:timers/promises';
import { fitted } from '../../src/server/preview/image-svg';
import { createCardRenderer } from '../../src/server/preview/card-renderer';
import { collectionLayout } from '../../src/server/preview/layout';
import { renderPng } from '../../src/server/preview/render-png';
import { plainFit } from '../support/plain-fit';
import type { BenchContext } from './context';
import { ms, round } from './lib/stats';

type Context = Pick<BenchContext, 'report' | 'log'>;

const BENCH = 'preview';
// The title's line on a card: its width, sizes 64 down to 40.
const fitTitle = (text: string) => fitted(text, 848, 64, 40, 0.62);
const plainTitle = (text: string) => plainFit(text, 848, 64, 40, 0.62);

function timed(run: () => unknown): number {
  const start = performance.now();
  run();
  return performance.now() - start;
}

/**
 * preview. A card for a collection with a 10,000-character name: fitting its title the
 * plain way (measure the whole line again per character dropped) beside the fitting
 * used (each character once, a line's worth at most), the whole card drawn, and the event
 * loop's longest pause while the card is drawn on the worker thread.
 */
export async function previewCard({ report, log }: Context): Promise<void> {
  log('preview: fitting a long name, drawing its card');
  // The plain way on 10,000 characters takes tens of seconds: it is timed on fewer.
  for (const length of [1_000, 2_000]) {
    const name = 'W'.repeat(length);
    const plain = timed(() => plainTitle(name));
    const used = timed(() => fitTitle(name));
    report.info(
      BENCH,
      `fit a ${length}-character title: plain / used (ratio)`,
      `${ms(plain, 1)} / ${ms(used, 2)} (${round(plain / used, 0)}×)`,
    );
  }
  const longName = 'W'.repeat(10_000);
  report.info(
    BENCH,
    'fit a 10,000-character title (used)',
    ms(
      timed(() => fitTitle(longName)),
      2,
    ),
  );
  const layout = collectionLayout({ address: '0x1', name: longName, symbol: 'X' }, null);
  report.info(
    BENCH,
    'draw its card on this thread (PNG)',
    ms(
      timed(() => renderPng(layout)),
      0,
    ),
  );

  const renderer = createCardRenderer(10_000);
  try {
    await renderer.started();
    const drawn = renderer.draw(layout);
    let done = false;
    void drawn.then(() => (done = true));
    const start = performance.now();
    let longestPause = 0;
    while (!done) {
      const before = performance.now();
      await tick();
      longestPause = Math.max(longestPause, performance.now() - before);
    }
    report.info(
      BENCH,
      'draw it on the worker: time / longest event-loop pause meanwhile',
      `${ms(performance.now() - start, 0)} / ${ms(longestPause, 1)}`,
    );
  } finally {
    await renderer.close();
  }
}
