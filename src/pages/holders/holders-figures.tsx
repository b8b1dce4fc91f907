import {
  countFigures,
  FigureList,
  placeholderFigures,
  type Figure,
} from '../../components/figure-list';
import { ShareTable } from '../../components/share-table';
import type { HoldersAnswer } from '../../lib/answers';
import { formatShare } from '../../lib/format';
import section from '../../components/section.module.css';
import styles from './holders-page.module.css';

type Figures = Omit<HoldersAnswer, 'holders' | 'next'>;

/**
 * The holders' figures: how many, tokens held, the ten largest's share, known burns; how
 * the holders spread by tokens held (a bar per range, its count and share of holders);
 * and what is counted and covered, as the server says it.
 */
export function HoldersFigures({ answer, when }: { answer: Figures | undefined; when: string }) {
  const items: Figure[] = answer
    ? [
        ...countFigures({ Holders: answer.totalHolders, 'Tokens held': answer.tokensHeld }),
        ['Top 10 hold', formatShare(answer.top10Share)],
        ...countFigures({ 'Known burns': answer.knownBurned }),
      ]
    : PLACEHOLDER;
  const total = answer?.totalHolders ?? 0;
  return (
    <>
      <div className={section.figuresArea}>
        <FigureList
          figures={items}
          busy={answer === undefined}
          className={styles.figures}
          label={`Holders ${when}`}
        />
        {answer && (
          <ShareTable
            caption={`Holders by tokens held, ${when}`}
            columns={['Tokens held', 'Holders', 'Share of holders']}
            parts={answer.distribution.map(({ range, holders }) => ({
              label: range,
              count: holders,
              share: total > 0 ? holders / total : 0,
            }))}
          />
        )}
      </div>
      {answer && (
        <p className={`${styles.counted} muted small`}>
          {answer.counted} {answer.coverage.statement}
        </p>
      )}
    </>
  );
}

const PLACEHOLDER = placeholderFigures(['Holders', 'Tokens held', 'Top 10 hold', 'Known burns']);
