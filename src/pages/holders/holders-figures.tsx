import {
  countFigures,
  FigureList,
  placeholderFigures,
  type Figure,
} from '../../components/figure-list';
import type { HoldersAnswer } from '../../lib/answers';
import { formatCount, formatShare } from '../../lib/format';
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
      <div className={styles.figuresArea}>
        <FigureList
          figures={items}
          busy={answer === undefined}
          className={styles.figures}
          label={`Holders ${when}`}
        />
        {answer && (
          <table className={styles.distribution}>
            <caption>Holders by tokens held, {when}</caption>
            <thead>
              <tr>
                <th scope="col">Tokens held</th>
                <th scope="col" className={styles.number}>
                  Holders
                </th>
                <th scope="col" className={styles.shareHead}>
                  Share of holders
                </th>
              </tr>
            </thead>
            <tbody>
              {answer.distribution.map(({ range, holders }) => {
                const share = total > 0 ? holders / total : 0;
                return (
                  <tr key={range}>
                    <th scope="row">{range}</th>
                    <td className={styles.number}>{formatCount(holders)}</td>
                    <td>
                      <span className={styles.bar} aria-hidden="true">
                        <span style={{ width: `${share * 100}%` }} />
                      </span>
                      <span className={styles.shareText}>{formatShare(share)}</span>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
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
