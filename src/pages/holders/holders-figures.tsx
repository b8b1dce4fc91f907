import type { ReactNode } from 'react';
import type { HoldersAnswer } from '../../lib/answers';
import { formatCount } from '../../lib/format';
import styles from './holders-page.module.css';

/** "12.5%", "<0.1%" for a share too small to show, "0%" for none. */
export function formatShare(share: number): string {
  if (share === 0) return '0%';
  if (share < 0.001) return '<0.1%';
  return `${(share * 100).toFixed(1).replace(/\.0$/, '')}%`;
}

type Figures = Omit<HoldersAnswer, 'holders' | 'next'>;

/**
 * The holders' figures: how many, tokens held, the ten largest's share, known burns; how
 * the holders spread by tokens held (a bar per range, its count and share of holders);
 * and what is counted and covered, as the server says it.
 */
export function HoldersFigures({ answer, when }: { answer: Figures | undefined; when: string }) {
  const items: [string, ReactNode][] = answer
    ? [
        ['Holders', formatCount(answer.totalHolders)],
        ['Tokens held', formatCount(answer.tokensHeld)],
        ['Top 10 hold', formatShare(answer.top10Share)],
        ['Known burns', formatCount(answer.knownBurned)],
      ]
    : PLACEHOLDER;
  const total = answer?.totalHolders ?? 0;
  return (
    <>
      <div className={styles.figuresArea}>
        <dl
          className={styles.figures}
          aria-busy={answer === undefined}
          aria-label={`Holders ${when}`}
        >
          {items.map(([label, value]) => (
            <div key={label}>
              <dt>{label}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
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

const PLACEHOLDER: [string, ReactNode][] = (
  ['Holders', 'Tokens held', 'Top 10 hold', 'Known burns'] as const
).map((label) => [label, '…']);
