import { countFigures, FigureList, type Figure } from '../../components/figure-list';
import { ShareTable } from '../../components/share-table';
import type { MarketAnswer } from '../../lib/answers';
import { formatCount, formatShare } from '../../lib/format';
import { formatDuration } from '../../lib/time';
import section from '../../components/section.module.css';
import styles from './market-page.module.css';

const countAndShare = (count: number, share: number) =>
  `${formatCount(count)} (${formatShare(share)})`;

/**
 * The minters: how many wallets minted, how many of them hold a token of the collection
 * now; how many tokens were minted, how many their minter holds now.
 */
export function MintersFigures({ answer, when }: { answer: MarketAnswer; when: string }) {
  const m = answer.minters;
  const figures: Figure[] = [
    ...countFigures({ 'Wallets that minted': m.minters }),
    ['Still holding a token', countAndShare(m.holding, m.holdingShare)],
    ...countFigures({ 'Tokens minted': m.minted }),
    ['Still held by their minter', countAndShare(m.keptByMinter, m.keptShare)],
  ];
  return (
    <FigureList
      figures={figures}
      busy={false}
      className={styles.figures}
      label={`Minters ${when}`}
    />
  );
}

/**
 * How long minted tokens waited for their first sale: how many sold and never sold, the
 * quartiles, and the spread over buckets of time (each bucket's share of the tokens sold).
 */
export function FirstSaleFigures({ answer, when }: { answer: MarketAnswer; when: string }) {
  const f = answer.firstSale;
  const [q1, median, q3] = f.quartiles ?? [null, null, null];
  const duration = (seconds: number | null) => (seconds === null ? '—' : formatDuration(seconds));
  const figures: Figure[] = [
    ...countFigures({ 'Sold at least once': f.sold, 'Never sold': f.neverSold }),
    ['Median wait', duration(median)],
    ['Middle half waited', q1 === null ? '—' : `${duration(q1)} to ${duration(q3)}`],
  ];
  return (
    <div className={section.figuresArea}>
      <FigureList
        figures={figures}
        busy={false}
        className={styles.figures}
        label={`Time from mint to first sale ${when}`}
      />
      {f.sold > 0 && (
        <ShareTable
          caption={`Time from mint to first sale, tokens minted ${when}`}
          columns={['Wait', 'Tokens', 'Share of tokens sold']}
          parts={f.buckets.map((bucket) => ({
            label: bucket.range,
            count: bucket.tokens,
            share: bucket.tokens / f.sold,
          }))}
        />
      )}
    </div>
  );
}
